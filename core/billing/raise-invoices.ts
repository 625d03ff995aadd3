import { maxDate, type DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { add, sum } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { NewInvoice } from '../ports/ledger.js'
import type { Store } from '../ports/store.js'

/** The last transaction date a customer's invoice takes: the run's cutoffs, or a later final-bill date. */
function invoiceThrough(run: Item, customer: Item, cutoff: DateOnly): DateOnly {
  const txCutoff = maxDate((run.transactionCutoffDate as DateOnly | null) ?? cutoff, cutoff)
  const finalBill = customer.isFinalBill ? (customer.finalBillDate as DateOnly | null) : null
  return finalBill ? maxDate(txCutoff, finalBill) : txCutoff
}

/**
 * One invoice per billable customer of a batch with unapproved transactions up to its cutoff
 * (none when empty; a final bill is invoiced once). The batch's transactions are read in one
 * query and its invoices written together, not a few queries per customer.
 */
export async function raiseInvoices(
  ctx: PlatformContext,
  store: Store,
  run: Item,
  customers: readonly Item[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
): Promise<number> {
  const due = customers.filter((customer) => {
    if (!effectiveStateOn(events.get(`customers:${customer.id}`) ?? [], cutoff).billable) return false
    const finalBill = customer.isFinalBill ? (customer.finalBillDate as DateOnly | null) : null
    return !(finalBill && customer.finalInvoicedDate === finalBill)
  })
  if (due.length === 0) return 0
  const latest = due.map((c) => invoiceThrough(run, c, cutoff)).reduce(maxDate)
  const lines = await store.ledger.invoiceable(due.map((c) => c.id), latest)
  const invoiceDate = (run.invoiceDate as DateOnly | null) ?? ctx.clock.today()
  const now = ctx.clock.now()
  const invoices: NewInvoice[] = []
  const finalBills: Item[] = []
  for (const customer of due) {
    const through = invoiceThrough(run, customer, cutoff)
    const mine = (lines.get(customer.id) ?? []).filter((l) => l.transactionDate <= through)
    if (mine.length === 0) continue
    const net = sum(mine.map((l) => l.amount))
    const vat = sum(mine.map((l) => l.VATAmount))
    const transactionIDs = mine.map((l) => l.id)
    invoices.push({
      transactionIDs,
      values: {
        customerID: customer.id,
        billingRunID: run.id,
        invoiceDate,
        dueDate: (run.dueDate as DateOnly | null) ?? invoiceDate,
        netAmount: net,
        VATAmount: vat,
        totalAmount: add(net, vat),
        transactionIDs,
        createdStamp: now,
        updatedStamp: now,
      },
    })
    if (customer.isFinalBill && customer.finalBillDate) finalBills.push(customer)
  }
  await store.ledger.raiseInvoices(invoices, run.id)
  for (const customer of finalBills) await store.repository('customers').update(customer.id, { finalInvoicedDate: customer.finalBillDate })
  return invoices.length
}
