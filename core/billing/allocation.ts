import type { DateOnly } from '../dates/date-only.js'
import { add, sub, ZERO, type Money } from '../money/money.js'
import type { InvoiceStatus } from '../presets/engine-lists.js'

/** An invoice of a customer as allocation sees it. */
export interface AccountInvoice {
  readonly id: string
  readonly invoiceDate: DateOnly
  readonly dueDate: DateOnly
  readonly overdueDate: DateOnly
  readonly totalAmount: Money
  /** Its VAT: a credit invoice's credit carries its share of it (a write-off's VAT, contract 17.6). */
  readonly VATAmount?: Money
  /**
   * What was allocated to it before (stored): kept, since allocation is final (contract 17.6).
   * Absent for an invoice not allocated yet.
   */
  readonly amountPaid?: Money
}

/** Money that pays invoices: a payment or written-off debt (a transaction), or a credit invoice's credit. */
export interface Settlement {
  readonly kind: 'transaction' | 'invoice'
  readonly id: string
  readonly date: DateOnly
  /** What it pays, above zero. */
  readonly amount: Money
  /** The VAT within `amount` (a credit note's, a credit invoice's); none for money paid in. */
  readonly vat?: Money
}

/** One piece of a settlement allocated to an invoice. */
export interface Allocation {
  readonly invoiceID: string
  readonly source: Settlement
  readonly amount: Money
}

/** Where each invoice stands after allocation. */
export interface InvoicePayment {
  readonly amountPaid: Money
  readonly amountOutstanding: Money
  readonly paidDate: DateOnly | null
  readonly status: InvoiceStatus
}

export interface AccountAllocation {
  readonly allocations: readonly Allocation[]
  readonly invoices: ReadonlyMap<string, InvoicePayment>
  /** Settlements not allocated: held for the next invoice raised. */
  readonly held: Money
  /** What is held, by the settlement it is left of (the latest ones, in allocation order). */
  readonly heldFrom: readonly { readonly source: Settlement; readonly amount: Money }[]
}

const byIdNumber = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)

/** An invoice's status on `today` (contract 10.3): overdue only after its overdue date. */
export function statusOf(outstanding: Money, overdueDate: DateOnly | null, today: DateOnly): InvoiceStatus {
  if (outstanding <= 0n) return 'Paid'
  return overdueDate !== null && today > overdueDate ? 'Overdue' : 'Unpaid'
}

/**
 * Allocates a customer's settlements to its invoices (contract 10.3, 17.6): settlements in date
 * order (then invoices' credits before transactions, then ID) first fill again what each invoice
 * was allocated before (allocation is final: a later invoice never takes money back off an
 * earlier one), then pay what is outstanding, oldest due date first, then lowest ID; what is left
 * over is held. An invoice with a total of zero or below is paid by itself, and its credit is a
 * settlement. The account is allocated from its stored state, so allocating again changes
 * nothing, and an invoice never takes more than its total. Only when the settlements no longer
 * cover what was allocated (a payment deleted) does an invoice keep less.
 */
export function allocateAccount(invoices: readonly AccountInvoice[], settlements: readonly Settlement[], today: DateOnly): AccountAllocation {
  const credits: Settlement[] = invoices
    .filter((i) => i.totalAmount < 0n)
    .map((i) => ({ kind: 'invoice', id: i.id, date: i.invoiceDate, amount: -i.totalAmount as Money, vat: -(i.VATAmount ?? 0n) as Money }))
  const sources = [...settlements.filter((s) => s.amount > 0n), ...credits].sort(
    (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.kind === b.kind ? 0 : a.kind === 'invoice' ? -1 : 1) || byIdNumber(a.id, b.id),
  )
  const byDue = (a: AccountInvoice, b: AccountInvoice) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0) || byIdNumber(a.id, b.id)
  const payable = invoices.filter((i) => i.totalAmount > 0n).sort(byDue)
  // What each invoice is to be filled to, in order: first what it kept, then the rest of its total.
  const targets: { invoice: AccountInvoice; upTo: Money }[] = [
    ...payable.filter((i) => (i.amountPaid ?? 0n) > 0n).map((invoice) => ({ invoice, upTo: (invoice.amountPaid! < invoice.totalAmount ? invoice.amountPaid! : invoice.totalAmount) as Money })),
    ...payable.map((invoice) => ({ invoice, upTo: invoice.totalAmount })),
  ]
  const allocations: Allocation[] = []
  const paid = new Map<string, { amount: Money; date: DateOnly | null }>()
  const heldFrom: { source: Settlement; amount: Money }[] = []
  let next = 0
  let held = ZERO
  for (const source of sources) {
    let left = source.amount
    while (left > 0n && next < targets.length) {
      const { invoice, upTo } = targets[next]
      const sofar = paid.get(invoice.id)?.amount ?? ZERO
      if (sofar >= upTo) {
        next++
        continue
      }
      const take = (left < upTo - sofar ? left : upTo - sofar) as Money
      const amount = add(sofar, take)
      paid.set(invoice.id, { amount, date: amount === invoice.totalAmount ? source.date : null })
      allocations.push({ invoiceID: invoice.id, source, amount: take })
      left = sub(left, take)
      if (amount === upTo) next++
    }
    held = add(held, left)
    if (left > 0n) heldFrom.push({ source, amount: left })
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
    out.set(invoice.id, { amountPaid, amountOutstanding, paidDate: p?.date ?? null, status })
  }
  return { allocations, invoices: out, held, heldFrom }
}
