import { maxDate, type DateOnly } from '../dates/date-only.js'
import type { BillingRun, Transaction, ValuesOf } from '../fields/entity.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import { add, ZERO } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Invoiceable, NewInvoice } from '../ports/ledger.js'
import type { Store } from '../ports/store.js'
import { statusOf } from './allocation.js'
import { cycleDue, cycleSkips, invoiceDueDate, overdueDateOf } from './invoice-terms.js'
import { settleAccounts } from './settle-accounts.js'
import type { RunCustomer } from './run-fields.js'

/** The finalBillDate of a customer in final bill, else null. */
const finalBillOf = (customer: RunCustomer): DateOnly | null => (customer.isFinalBill ? customer.finalBillDate : null)

/** The last transaction date a customer's invoice takes: the run's cutoffs, or a later final-bill date. */
function invoiceThrough(run: BillingRun, customer: RunCustomer, cutoff: DateOnly): DateOnly {
  const txCutoff = maxDate(run.transactionCutoffDate ?? cutoff, cutoff)
  const finalBill = finalBillOf(customer)
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
  run: BillingRun,
  customers: readonly RunCustomer[],
  cutoff: DateOnly,
  events: ReadonlyMap<string, LifecycleEvent[]>,
  inserts: readonly ValuesOf<Transaction>[] = [],
): Promise<number> {
  const invoiceDate = run.invoiceDate ?? ctx.clock.today()
  const billable = customers.filter((customer) => {
    if (!effectiveStateOn(events.get(`customers:${customer.id}`) ?? [], cutoff).billable) return false
    const finalBill = finalBillOf(customer)
    return !(finalBill && customer.finalInvoicedDate === finalBill)
  })
  // Only a customer on a longer cycle can wait for a later run; its last invoice decides (contract 10.1).
  const cycled = billable.filter((c) => !finalBillOf(c) && cycleSkips(c.billingCycle)).map((c) => c.id)
  const lastInvoiced = cycled.length ? await store.ledger.lastInvoiceDates(cycled) : new Map<string, string>()
  const due = billable.filter((c) => finalBillOf(c) || cycleDue(c.billingCycle, (lastInvoiced.get(c.id) as DateOnly | undefined) ?? null, invoiceDate))
  const latest = due.length ? due.map((c) => invoiceThrough(run, c, cutoff)).reduce(maxDate) : null
  const lines = latest ? await store.ledger.invoiceable(due.map((c) => c.id), latest) : new Map<string, Invoiceable[]>()
  const insertedOf = new Map<string, number[]>()
  inserts.forEach((row, i) => {
    if (!row.customerID) return // every row of a run names its customer
    const list = insertedOf.get(row.customerID)
    if (list) list.push(i)
    else insertedOf.set(row.customerID, [i])
  })
  const now = ctx.clock.now()
  const today = ctx.clock.today()
  const settle: string[] = []
  const invoices: NewInvoice[] = []
  const finalBills: { id: string; finalBillDate: DateOnly }[] = []
  for (const customer of due) {
    const through = invoiceThrough(run, customer, cutoff)
    const mine = (lines.get(customer.id) ?? []).filter((l) => l.transactionDate <= through)
    const inserted = (insertedOf.get(customer.id) ?? []).filter((i) => (inserts[i].transactionDate ?? through) <= through)
    if (mine.length === 0 && inserted.length === 0) continue
    // Summed in place rather than through four arrays per invoice (a run raises one per customer).
    let net = ZERO
    let vat = ZERO
    for (const l of mine) {
      net = add(net, l.amount)
      vat = add(vat, l.VATAmount)
    }
    for (const i of inserted) {
      net = add(net, inserts[i].amount ?? ZERO)
      vat = add(vat, inserts[i].VATAmount ?? ZERO)
    }
    const transactionIDs = mine.map((l) => l.id)
    const dueDate = invoiceDueDate(customer, invoiceDate, run.dueDate)
    const overdueDate = overdueDateOf(customer, dueDate, ctx.presets)
    const totalAmount = add(net, vat)
    // Credit held from earlier payments, or this invoice's own credit, is allocated once it is raised.
    if ((customer.heldCredit ?? ZERO) > 0n || totalAmount < 0n) settle.push(customer.id)
    invoices.push({
      transactionIDs,
      inserted,
      values: {
        customerID: customer.id,
        billingRunID: run.id,
        invoiceDate,
        dueDate,
        netAmount: net,
        VATAmount: vat,
        totalAmount,
        transactionIDs,
        amountPaid: totalAmount < 0n ? totalAmount : ZERO,
        amountOutstanding: totalAmount < 0n ? ZERO : totalAmount,
        paidDate: totalAmount <= 0n ? invoiceDate : null,
        overdueDate,
        status: statusOf(totalAmount < 0n ? ZERO : totalAmount, overdueDate, today),
        suppressed: false,
        createdStamp: now,
        updatedStamp: now,
      },
    })
    const finalBill = finalBillOf(customer)
    if (finalBill) finalBills.push({ id: customer.id, finalBillDate: finalBill })
  }
  await store.ledger.raiseInvoices(invoices, run.id, inserts)
  await settleAccounts(store, settle, today, now)
  for (const customer of finalBills) await store.repository('customers').update(customer.id, { finalInvoicedDate: customer.finalBillDate })
  return invoices.length
}
