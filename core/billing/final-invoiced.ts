import type { Invoice } from '../fields/entity.js'
import type { RunCustomer } from '../ports/run-fields.js'
import type { Store } from '../ports/store.js'

/** Customers' IDs per statement when a discard looks for the final bills its drafts marked. */
const CHUNK = 1_000

/**
 * Marks the customers of a run's invoices that were in final bill as the run read them: their
 * final invoice is written (contract 9.5, 5.5: no run invoices them again unless reinstated).
 * Marked as the run writes an invoice, a review run's draft included, not when a draft is
 * approved: the draft is billed as drafted (README, "Review runs"), so only a customer in final
 * bill when drafted has its final invoice there. One put into final bill after drafting gets its
 * final invoice from the next run, through its dateFinalBill. `customers` as the run read them.
 */
export async function markFinalInvoiced(store: Store, invoices: readonly Invoice[], customers: ReadonlyMap<string, RunCustomer>): Promise<void> {
  for (const invoice of invoices) {
    const customer = customers.get(invoice.customerID!)
    if (customer?.isFinalBill && customer.finalBillDate) await store.repository('customers').update(customer.id, { finalInvoicedDate: customer.finalBillDate })
  }
}

/**
 * Clears the final-bill marks of the customers whose drafts of `runID` are discarded (before
 * they go): their final invoice is still to come, from the corrected run. A customer marked so
 * is in final bill with its mark at its finalBillDate; few are at once, found on their partial
 * index, and only those with a draft of the run were marked by it (any other marked customer is
 * not drafted: its final invoice was written before).
 */
export async function unmarkDiscardedFinals(store: Store, runID: string): Promise<void> {
  const finals = await store.repository('customers').list({
    where: [
      { op: 'eq', column: 'isFinalBill', value: true },
      { op: 'isNull', column: 'finalInvoicedDate', value: false },
    ],
    limit: Number.MAX_SAFE_INTEGER,
    storedOnly: true,
  })
  const marked = finals.filter((c) => c.finalInvoicedDate === c.finalBillDate).map((c) => c.id)
  for (let i = 0; i < marked.length; i += CHUNK) {
    const ids = marked.slice(i, i + CHUNK)
    const drafts = await store.repository('invoices').list({
      where: [
        { op: 'eq', column: 'billingRunID', value: runID },
        { op: 'eq', column: 'status', value: 'Draft' },
        { op: 'in', column: 'customerID', values: ids },
      ],
      limit: ids.length,
    })
    if (drafts.length) await store.repository('customers').updateWhere([{ op: 'in', column: 'id', values: drafts.map((d) => d.customerID!) }], { finalInvoicedDate: null })
  }
}
