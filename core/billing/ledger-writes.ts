import type { Stamp } from '../dates/stamp.js'
import type { Transaction, ValuesOf } from '../fields/entity.js'
import type { LedgerWrites } from '../ports/ledger.js'
import type { Presets } from '../presets/presets.js'
import type { LedgerDiff } from './ledger-row.js'
import type { LedgerRow } from '../ports/ledger.js'
import type { RunCustomer, RunFeature } from '../ports/run-fields.js'
import { vatOn } from './vat.js'

/** The VAT rate name of a feature's charges: its own, else its customer's; null means no VAT. */
export function vatRateOf(feature: Pick<RunFeature, 'VATRate'>, customer: Pick<RunCustomer, 'VATRate'> | null): string | null {
  return (feature.VATRate ?? customer?.VATRate ?? null) || null
}

/**
 * The account code a feature's row is posted under (contract 16.4): its connection or service
 * transaction code by kind, kept with the row as posted (a later change of the feature's code
 * does not move rows already written); null: the journal takes the transaction type.
 */
const accountCodeOf = (feature: RunFeature, kind: 'connection' | 'recurring'): string | null =>
  (kind === 'connection' ? feature.connectionTransactionCode : feature.serviceTransactionCode) || null

/** What an engine row is called on an invoice: the feature's description, else its type. */
const descriptionOf = (feature: RunFeature, row: { transactionType: string }): string => feature.description || feature.featureType || row.transactionType

type TransactionValues = ValuesOf<Transaction>

/** Turns a feature's ledger difference into rows of the `transactions` table. */
export function ledgerWrites(
  feature: RunFeature,
  customer: Pick<RunCustomer, 'VATRate'> | null,
  diff: LedgerDiff,
  presets: Presets,
  now: Stamp,
  billingRunID: string | null = null,
): LedgerWrites {
  const VATRate = vatRateOf(feature, customer)
  const inserts: TransactionValues[] = diff.insert.map((row) => {
    // A correction's own rate and VAT (see `NewLedgerRow`); a charge's the feature's now.
    const rate = row.VATRate === undefined ? VATRate : row.VATRate
    return {
      customerID: feature.customerID,
      numberID: feature.numberID,
      serviceID: feature.serviceID,
      featureID: feature.id,
      transactionType: row.transactionType,
      description: descriptionOf(feature, row),
      transactionDate: row.transactionDate,
      dateFrom: row.periodStart,
      dateTo: row.periodEnd,
      quantity: row.quantity,
      amount: row.amount,
      VATRate: rate,
      VATAmount: row.VATAmount ?? vatOn(row.amount, rate, presets),
      approved: false,
      billingRunID,
      kind: row.kind,
      series: row.series,
      revision: row.revision,
      rate: row.rate,
      carrierCost: row.carrierCost,
      accountCode: accountCodeOf(feature, row.kind),
      createdStamp: now,
      updatedStamp: now,
    }
  })
  const updates = diff.update.map((u) => {
    const values: TransactionValues = { updatedStamp: now }
    if (u.set.transactionDate !== undefined) values.transactionDate = u.set.transactionDate
    if (u.set.periodEnd !== undefined) values.dateTo = u.set.periodEnd
    if (u.set.quantity !== undefined) values.quantity = u.set.quantity
    if (u.set.rate !== undefined) values.rate = u.set.rate
    if (u.set.carrierCost !== undefined) values.carrierCost = u.set.carrierCost
    if (u.set.amount !== undefined) values.amount = u.set.amount
    // A correction's VAT stays at its own rate (given with it); a charge's is at the feature's now,
    // and the row names the rate its VAT was taken at (a rate changed since it was written).
    if (u.set.VATAmount !== undefined) values.VATAmount = u.set.VATAmount
    else if (u.set.amount !== undefined) {
      values.VATRate = u.set.VATRate === undefined ? VATRate : u.set.VATRate
      values.VATAmount = vatOn(u.set.amount, values.VATRate, presets)
    }
    if (u.set.VATRate !== undefined) values.VATRate = u.set.VATRate
    return { id: u.id, values }
  })
  const written = inserts.length + updates.length + diff.delete.length > 0
  return { inserts, updates, deletes: diff.delete, features: written ? [feature.id] : [] }
}

/** Concatenates the writes of several features into one bulk write. */
export function mergeWrites(all: readonly LedgerWrites[]): LedgerWrites {
  const inserts: TransactionValues[] = []
  const updates: { id: string; values: TransactionValues }[] = []
  const deletes: string[] = []
  const features: string[] = []
  // Pushed one by one: flatMap over thousands of short lists cost more than building them.
  for (const w of all) {
    for (const v of w.inserts) inserts.push(v)
    for (const u of w.updates) updates.push(u)
    for (const d of w.deletes) deletes.push(d)
    for (const f of w.features) features.push(f)
  }
  return { inserts, updates, deletes, features }
}

export type { LedgerRow }
