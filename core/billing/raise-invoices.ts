import { maxDate, type DateOnly } from '../dates/date-only.js'
import type { Item, Values } from '../fields/item.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { add, ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Invoiceable, NewInvoice } from '../ports/ledger.js'
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
 * query and its invoices written together, not a few queries per customer. `inserts` are the
 * batch's new ledger rows, not yet written: the ledger inserts them with the invoices, already
 * on them, which saved updating every row again (bench/billing-run.ts).
 */
export async function raiseInvoices(
  ctx: PlatformContext,
  store: Store,
  run: Item,
  customers: readonly Item[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  inserts: readonly Values[] = [],
): Promise<number> {
  const due = customers.filter((customer) => {
    if (!effectiveStateOn(events.get(`customers:${customer.id}`) ?? [], cutoff).billable) return false
    const finalBill = customer.isFinalBill ? (customer.finalBillDate as DateOnly | null) : null
    return !(finalBill && customer.finalInvoicedDate === finalBill)
  })
  const latest = due.length ? due.map((c) => invoiceThrough(run, c, cutoff)).reduce(maxDate) : null
  const lines = latest ? await store.ledger.invoiceable(due.map((c) => c.id), latest) : new Map<string, Invoiceable[]>()
  const insertedOf = new Map<string, number[]>()
  inserts.forEach((row, i) => {
    const list = insertedOf.get(row.customerID as string)
    if (list) list.push(i)
    else insertedOf.set(row.customerID as string, [i])
  })
  const invoiceDate = (run.invoiceDate as DateOnly | null) ?? ctx.clock.today()
  const now = ctx.clock.now()
  const invoices: NewInvoice[] = []
  const finalBills: Item[] = []
  for (const customer of due) {
    const through = invoiceThrough(run, customer, cutoff)
    const mine = (lines.get(customer.id) ?? []).filter((l) => l.transactionDate <= through)
    const inserted = (insertedOf.get(customer.id) ?? []).filter((i) => (inserts[i].transactionDate as string) <= through)
    if (mine.length === 0 && inserted.length === 0) continue
    // Summed in place rather than through four arrays per invoice (a run raises one per customer).
    let net = ZERO
    let vat = ZERO
    for (const l of mine) {
      net = add(net, l.amount)
      vat = add(vat, l.VATAmount)
    }
    for (const i of inserted) {
      net = add(net, inserts[i].amount as Money)
      vat = add(vat, inserts[i].VATAmount as Money)
    }
    const transactionIDs = mine.map((l) => l.id)
    invoices.push({
      transactionIDs,
      inserted,
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
  await store.ledger.raiseInvoices(invoices, run.id, inserts)
  for (const customer of finalBills) await store.repository('customers').update(customer.id, { finalInvoicedDate: customer.finalBillDate })
  return invoices.length
}
