import { BillingError, notFound } from '../errors.js'
import type { Customer, ParamsOf, Transaction } from '../fields/entity.js'
import { date, field } from '../fields/field.js'
import { add, mulRatioRound, neg, sub, ZERO, type Money } from '../money/money.js'
import { byRate, splitShare, type RatePart } from './write-off-rates.js'
import { allocateAccount } from './allocation.js'
import type { AccountAllocation } from '../ports/receivables.js'
import type { Account } from '../ports/receivables.js'
import type { PlatformContext } from '../platform.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import { recordChanges } from '../history/record-change.js'
import { settleAccounts } from './settle-accounts.js'

export const vatTreatments = ['standard', 'vat_exempt'] as const

/** The parameters of writeOffDebt and writeOffCredit. */
export const writeOffParams = [
  date('dateWriteoff', { required: true, description: 'date of the credit or debit note' }),
  field('vatTreatment', 'preset', {
    values: vatTreatments,
    description: 'standard (default: the VAT share of what is written off) or vat_exempt (all written off as net)',
  }),
] as const

/**
 * writeOffDebt (balance above zero → a Credit Note) and writeOffCredit (below zero → a Debit
 * Note) on a dropped customer, leaving a zero balance. `standard` carries the VAT share of what
 * it writes off (contract 17.6, see `writtenOffParts`), a row per VAT rate (16.4); `vat_exempt`
 * writes it all off as net, in one row.
 */
export async function writeOff(ctx: PlatformContext, customerID: string, kind: 'debt' | 'credit', params: ParamsOf<typeof writeOffParams>): Promise<Customer> {
  const action = kind === 'debt' ? 'writeOffDebt' : 'writeOffCredit'
  return ctx.store.transaction(async (store) => {
    const customer = await store.repository('customers').getForUpdate(customerID)
    // Purged since the route found it: not found, never a failure (contract 2).
    if (!customer) throw notFound('customer', customerID)
    const { net, vat } = await store.ledger.totals(customerID)
    const balance = add(net, vat)
    if (!customer.isDropped) {
      throw new BillingError('state_not_allowed', `Customer ${customerID} is not dropped`, `Drop the customer before ${action}.`)
    }
    if (kind === 'debt' ? balance <= 0n : balance >= 0n) {
      throw new BillingError(
        'state_not_allowed',
        `Customer ${customerID} has ${kind === 'debt' ? 'no debt' : 'no credit'} to write off (balance ${balance === 0n ? 'zero' : kind === 'debt' ? 'in credit' : 'in debt'})`,
        kind === 'debt' ? 'writeOffDebt needs a balance above zero.' : 'writeOffCredit needs a balance below zero.',
      )
    }
    const account = (await store.receivables.accounts([customerID])).get(customerID) ?? { invoices: [], settlements: [], allocations: [] }
    const allocation = allocateAccount(account.invoices, account.settlements, ctx.clock.today(), account.allocations)
    // One row per VAT rate (contract 16.4), so a VAT return reverses each rate's tax on its own.
    const parts =
      params.vatTreatment === 'vat_exempt'
        ? [{ VATRate: null, net: balance, vat: ZERO }]
        : writtenOffParts(kind, allocation, account, { total: balance, vat }, linesOf(await store.repository('transactions').listIn('customerID', [customerID]), account))
    const now = ctx.clock.now()
    const transactions = store.repository('transactions')
    const notes: Transaction[] = []
    for (const part of parts) {
      notes.push(
        await transactions.insert({
          customerID,
          transactionType: kind === 'debt' ? 'Credit Note' : 'Debit Note',
          description: kind === 'debt' ? 'Debt written off' : 'Credit written off',
          transactionDate: params.dateWriteoff,
          amount: neg(part.net),
          VATAmount: neg(part.vat),
          VATRate: part.VATRate,
          approved: false,
          // Written-off debt pays the invoices it writes off, like a payment (contract 10.3).
          settles: kind === 'debt',
          createdStamp: now,
          updatedStamp: now,
        }),
      )
    }
    // The note is a transaction created like a manual one (contract 12); the customer's entry is the action's.
    await recordChanges(store, ctx.clock, notes.map((after) => ({ resource: transactions.resource, action: 'create' as const, before: null, after })))
    if (kind === 'debt') await settleAccounts(store, [customerID], ctx.clock.today(), now, { act: ctx })
    else await refreshCreditAlerts(store, [customerID], now, { act: ctx })
    return (await store.repository('customers').get(customerID))!
  })
}

/** The lines of the documents a write-off takes shares of, per rate, signed as stored. */
export interface WriteOffLines {
  /** Each invoice's (a credit invoice's too), by its ID. */
  readonly invoices: ReadonlyMap<string, readonly RatePart[]>
  /** Each settling transaction's own (a credit note line's, a payment's), by its ID. */
  readonly settlements: ReadonlyMap<string, readonly RatePart[]>
  /** Charges and credits on no invoice that allocation sees yet (a draft's lines among them). */
  readonly uninvoiced: readonly RatePart[]
}

/** A customer's transactions as `writtenOffParts` reads them. */
export function linesOf(rows: readonly Transaction[], account: Account): WriteOffLines {
  const invoiced = new Set(account.invoices.map((i) => i.id))
  const invoices = new Map<string, RatePart[]>()
  const settlements = new Map<string, RatePart[]>()
  const uninvoiced: RatePart[] = []
  for (const t of rows) {
    const part = { VATRate: t.VATRate ?? null, net: t.amount ?? ZERO, vat: t.VATAmount ?? ZERO }
    if (t.settles) settlements.set(t.id, [part])
    else if (t.invoiceID !== null && invoiced.has(t.invoiceID)) invoices.set(t.invoiceID, [...(invoices.get(t.invoiceID) ?? []), part])
    else uninvoiced.push(part)
  }
  return { invoices, settlements, uninvoiced }
}

/**
 * A `standard` write-off per VAT rate (contract 17.6, 16.4), signed like the balance. Of a debt:
 * each outstanding invoice's outstanding amount with VAT of its VAT × that ÷ its total, and
 * likewise the charges not invoiced yet (as one invoice, less the credit held for it), or, when
 * what is not invoiced yet comes to a credit, less all of it with all its VAT. Of a
 * credit: each held piece of a credit note or credit invoice with VAT of its VAT × that ÷ its
 * amount, and credits not invoiced yet with all their VAT. Each document's VAT is rounded half up
 * to the penny on its own, then split over its rates (`splitShare`); what no document's share
 * covers (money paid in, charges a held credit meets) is net at no rate.
 */
export function writtenOffParts(kind: 'debt' | 'credit', allocation: AccountAllocation, account: Account, balance: { total: Money; vat: Money }, lines: WriteOffLines): RatePart[] {
  // What no invoice carries and no settlement is: the balance less both (a charge not yet invoiced).
  let uninvoiced = balance.total
  let uninvoicedVat = balance.vat
  for (const i of account.invoices) {
    uninvoiced = sub(uninvoiced, i.totalAmount)
    uninvoicedVat = sub(uninvoicedVat, i.VATAmount ?? ZERO)
  }
  for (const s of account.settlements) {
    uninvoiced = add(uninvoiced, s.amount)
    uninvoicedVat = add(uninvoicedVat, s.vat ?? ZERO)
  }
  const parts: RatePart[] = []
  if (kind === 'debt') {
    for (const invoice of account.invoices) {
      const outstanding = allocation.invoices.get(invoice.id)?.amountOutstanding ?? ZERO
      if (outstanding > 0n && invoice.totalAmount > 0n) parts.push(...splitShare(outstanding, share(outstanding, invoice.VATAmount ?? ZERO, invoice.totalAmount), lines.invoices.get(invoice.id) ?? []))
    }
    const outstanding = sub(uninvoiced, allocation.held)
    if (uninvoiced > 0n && outstanding > 0n) parts.push(...splitShare(outstanding, share(outstanding, uninvoicedVat, uninvoiced), lines.uninvoiced))
    // Credits not invoiced yet (a drop's refunds) lessen the debt the invoices leave, VAT and all,
    // so no more VAT is relieved than is owed: each rate's net of the two is what is written off.
    else if (uninvoiced < 0n) parts.push(...splitShare(uninvoiced, uninvoicedVat, lines.uninvoiced))
  } else {
    for (const { source, amount } of allocation.heldFrom) {
      const of = (source.kind === 'invoice' ? lines.invoices : lines.settlements).get(source.id) ?? []
      const split = splitShare(amount, source.vat ? share(amount, source.vat, source.amount) : ZERO, of)
      parts.push(...split.map((p) => ({ VATRate: p.VATRate, net: neg(p.net), vat: neg(p.vat) })))
    }
    if (uninvoiced < 0n) parts.push(...splitShare(uninvoiced, uninvoicedVat, lines.uninvoiced))
  }
  const covered = parts.reduce((t, p) => add(t, add(p.net, p.vat)), ZERO)
  parts.push({ VATRate: null, net: sub(balance.total, covered), vat: ZERO })
  return byRate(parts).filter((p) => p.net !== 0n || p.vat !== 0n)
}

/** Whether a transaction is a writeOffDebt's: a settling `Credit Note` of no credit note (it names no invoice line). */
export const isDebtWriteOff = (t: Transaction): boolean => t.transactionType === 'Credit Note' && t.settles === true && t.creditNoteID === null

/**
 * The net of what debt write-offs took of an invoice, each piece `amount` (VAT included) of one
 * write-off row: less the VAT share the write-off gave the invoice (17.6), reckoned once on all
 * its `standard` pieces together as the write-off reckoned it (its rows, one per VAT rate, are
 * pieces of one share), or all of it for `vat_exempt` rows (no rate, no VAT: all written off as
 * net). A credit note counts it as credited already (15.3).
 */
export function writtenOffNet(pieces: readonly { readonly amount: Money; readonly writeOff: Transaction }[], invoice: { readonly totalAmount: Money | null; readonly VATAmount: Money | null }): Money {
  const total = invoice.totalAmount ?? ZERO
  const exempt = (t: Transaction) => (t.VATRate ?? null) === null && (t.VATAmount ?? ZERO) === ZERO
  const all = pieces.reduce((t, p) => add(t, p.amount), ZERO)
  const standard = pieces.reduce((t, p) => (exempt(p.writeOff) ? t : add(t, p.amount)), ZERO)
  if (standard === ZERO || total <= 0n) return all
  return sub(all, share(standard, invoice.VATAmount ?? ZERO, total))
}

/** `part` of an amount that carries `vat` in `whole`: its VAT, half up to the penny. */
const share = (part: Money, vat: Money, whole: Money): Money => mulRatioRound(part, vat, whole, 2)
