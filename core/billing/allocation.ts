import type { DateOnly } from '../dates/date-only.js'
import { add, sub, ZERO, type Money } from '../money/money.js'
import type { InvoiceStatus } from '../presets/engine-lists.js'
import type { AccountInvoice, Settlement, Allocation, KeptAllocation, InvoicePayment, AccountAllocation } from '../ports/receivables.js'

const byIdNumber = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)

/** An invoice's status on `today` (contract 10.3): overdue only after its overdue date. */
export function statusOf(outstanding: Money, overdueDate: DateOnly | null, today: DateOnly): InvoiceStatus {
  if (outstanding <= 0n) return 'Paid'
  return overdueDate !== null && today > overdueDate ? 'Overdue' : 'Unpaid'
}

/**
 * Allocates a customer's settlements to its invoices (contract 10.3, 17.6). What was allocated
 * before (`kept`) stays where it is: allocation is final, so a later invoice never takes money
 * back off an earlier one (only a settlement that is gone or smaller now gives less). What is
 * left of each settlement, in date order (then invoices' credits before transactions, then ID),
 * pays what is outstanding, oldest due date first, then lowest ID; what is left over is held. An
 * invoice with a total of zero or below is paid by itself, and its credit is a settlement. A
 * credit note's line pays its own invoice first (contract 15.3). A refund (a settlement below
 * zero) takes back what is left of earlier settlements, latest first, before anything new is
 * allocated: it paid out held credit, which no later invoice may then take. A credit note's line
 * below zero (it gives a discount back, credit-lines.ts) takes back from the credit note lines
 * of its own invoice first: a credit note pays its invoice by its net. An invoice's paid
 * date is the latest date of what paid it in full. Allocating the result again changes nothing,
 * and an invoice never takes more than its total.
 */
export function allocateAccount(invoices: readonly AccountInvoice[], settlements: readonly Settlement[], today: DateOnly, kept: readonly KeptAllocation[] = []): AccountAllocation {
  const credits: Settlement[] = invoices
    .filter((i) => i.totalAmount < 0n)
    .map((i) => ({ kind: 'invoice', id: i.id, date: i.invoiceDate, amount: -i.totalAmount as Money, vat: -(i.VATAmount ?? 0n) as Money }))
  const sources = [...settlements.filter((s) => s.amount > 0n), ...credits].sort(
    (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.kind === b.kind ? 0 : a.kind === 'invoice' ? -1 : 1) || byIdNumber(a.id, b.id),
  )
  const payable = invoices
    .filter((i) => i.totalAmount > 0n)
    .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0) || byIdNumber(a.id, b.id))
  const left = new Map(sources.map((s) => [`${s.kind}:${s.id}`, { source: s, amount: s.amount }]))
  const paid = new Map<string, { amount: Money; date: DateOnly }>()
  const allocations: Allocation[] = []
  const allocate = (invoice: AccountInvoice, from: { source: Settlement; amount: Money }, most: Money) => {
    const sofar = paid.get(invoice.id)
    const room = sub(invoice.totalAmount, sofar?.amount ?? ZERO)
    const take = [most, from.amount, room].reduce((a, b) => (b < a ? b : a))
    if (take <= 0n) return
    from.amount = sub(from.amount, take)
    paid.set(invoice.id, { amount: add(sofar?.amount ?? ZERO, take), date: sofar && sofar.date > from.source.date ? sofar.date : from.source.date })
    allocations.push({ invoiceID: invoice.id, source: from.source, amount: take })
  }
  const byId = new Map(payable.map((i) => [i.id, i]))
  for (const k of kept) {
    const invoice = byId.get(k.invoiceID)
    const from = left.get(`${k.source.kind}:${k.source.id}`)
    if (invoice && from) allocate(invoice, from, k.amount)
  }
  const refunds = settlements.filter((s) => s.amount < 0n).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || byIdNumber(a.id, b.id))
  const pieces = [...left.values()]
  for (const refund of refunds) {
    let owed = -refund.amount as Money
    // What was held when it was paid out: the settlements dated up to it first, latest first; then any.
    const own = refund.invoiceID === undefined ? [] : pieces.filter((p) => p.source.invoiceID === refund.invoiceID)
    const order = [...own, ...pieces.filter((p) => p.source.date <= refund.date).reverse(), ...pieces.filter((p) => p.source.date > refund.date)]
    for (const from of order) {
      if (owed <= 0n) break
      const take = from.amount < owed ? from.amount : owed
      from.amount = sub(from.amount, take)
      owed = sub(owed, take)
    }
  }
  for (const from of left.values()) {
    const own = from.source.invoiceID === undefined ? undefined : byId.get(from.source.invoiceID)
    if (own) allocate(own, from, from.amount)
    for (const invoice of payable) {
      if (from.amount <= 0n) break
      allocate(invoice, from, from.amount)
    }
  }
  let held = ZERO
  const heldFrom: { source: Settlement; amount: Money }[] = []
  for (const from of left.values()) {
    if (from.amount <= 0n) continue
    held = add(held, from.amount)
    heldFrom.push({ source: from.source, amount: from.amount })
  }
  const out = new Map<string, InvoicePayment>()
  for (const invoice of invoices) {
    if (invoice.totalAmount <= 0n) {
      // Paid by its own credit: nothing outstanding (its credit is a settlement above).
      out.set(invoice.id, { amountPaid: invoice.totalAmount, amountOutstanding: ZERO, paidDate: invoice.invoiceDate, status: 'Paid' })
      continue
    }
    const p = paid.get(invoice.id)
    const amountPaid = p?.amount ?? ZERO
    const amountOutstanding = sub(invoice.totalAmount, amountPaid)
    const status = statusOf(amountOutstanding, invoice.overdueDate, today)
    out.set(invoice.id, { amountPaid, amountOutstanding, paidDate: amountOutstanding === 0n ? p!.date : null, status })
  }
  return { allocations, invoices: out, held, heldFrom }
}
