import type { Stamp } from '../dates/stamp.js'
import type { Item, Values } from '../fields/item.js'
import type { Money } from '../money/money.js'
import type { LedgerWrites } from '../ports/ledger.js'
import type { Presets } from '../presets/presets.js'
import type { LedgerDiff, LedgerRow } from './ledger-row.js'
import { vatFor } from './vat.js'

/** The VAT rate name of a feature's charges: its own, else its customer's; null means no VAT. */
export function vatRateOf(feature: Item, customer: Item | null): string | null {
  return ((feature.VATRate as string | null) ?? (customer?.VATRate as string | null) ?? null) || null
}

/** VAT on an amount at a configured rate name (0 when unset or unknown). */
export function vatOn(amount: Money, rate: string | null, presets: Presets): Money {
  const percent = rate ? presets.vatRatePercents[rate] : undefined
  return vatFor(amount, percent ?? '0')
}

/** What an engine row is called on an invoice: the feature's description, else its type. */
const descriptionOf = (feature: Item, row: { transactionType: string }): string =>
  ((feature.description as string | null) || (feature.featureType as string | null) || row.transactionType) as string

/** Turns a feature's ledger difference into rows of the `transactions` table. */
export function ledgerWrites(
  feature: Item,
  customer: Item | null,
  diff: LedgerDiff,
  presets: Presets,
  now: Stamp,
  billingRunID: string | null = null,
): LedgerWrites {
  const VATRate = vatRateOf(feature, customer)
  const inserts: Values[] = diff.insert.map((row) => ({
    customerID: feature.customerID as string,
    numberID: (feature.numberID as string | null) ?? null,
    serviceID: (feature.serviceID as string | null) ?? null,
    featureID: feature.id,
    transactionType: row.transactionType,
    description: descriptionOf(feature, row),
    transactionDate: row.transactionDate,
    dateFrom: row.periodStart,
    dateTo: row.periodEnd,
    quantity: row.quantity,
    amount: row.amount,
    VATRate,
    VATAmount: vatOn(row.amount, VATRate, presets),
    approved: false,
    billingRunID,
    kind: row.kind,
    series: row.series,
    revision: row.revision,
    rate: row.rate,
    createdStamp: now,
    updatedStamp: now,
  }))
  const updates = diff.update.map((u) => {
    const values: Values = { updatedStamp: now }
    if (u.set.transactionDate !== undefined) values.transactionDate = u.set.transactionDate
    if (u.set.periodEnd !== undefined) values.dateTo = u.set.periodEnd
    if (u.set.quantity !== undefined) values.quantity = u.set.quantity
    if (u.set.rate !== undefined) values.rate = u.set.rate
    if (u.set.amount !== undefined) {
      values.amount = u.set.amount
      values.VATAmount = vatOn(u.set.amount, VATRate, presets)
    }
    return { id: u.id, values }
  })
  const written = inserts.length + updates.length + diff.delete.length > 0
  return { inserts, updates, deletes: diff.delete, features: written ? [feature.id] : [] }
}

/** Concatenates the writes of several features into one bulk write. */
export function mergeWrites(all: readonly LedgerWrites[]): LedgerWrites {
  const inserts: Values[] = []
  const updates: { id: string; values: Values }[] = []
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
