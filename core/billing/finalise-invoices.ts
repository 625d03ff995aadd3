import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { Invoice } from '../fields/entity.js'
import { ZERO, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { appendEvents } from '../history/record-change.js'
import { recordDeliveries } from '../delivery/record-deliveries.js'
import { statusOf } from './allocation.js'
import { clearNextMessages } from './invoice-message.js'
import type { RunCustomer } from '../ports/run-fields.js'

/**
 * An invoice's payment state as it is raised final (contract 10.3): a credit invoice is paid by
 * its own credit (allocated afterwards), a zero one paid on its date; the rest owed in full.
 */
export function raisedPaymentState(totalAmount: Money, invoiceDate: DateOnly, overdueDate: DateOnly | null, today: DateOnly) {
  return {
    amountPaid: totalAmount < 0n ? totalAmount : ZERO,
    amountOutstanding: totalAmount < 0n ? ZERO : totalAmount,
    paidDate: totalAmount <= 0n ? invoiceDate : null,
    status: statusOf(totalAmount < 0n ? ZERO : totalAmount, overdueDate, today),
  }
}

/**
 * What makes stored invoices final once they have their numbers (contract 14.1) and their
 * transactions are approved on them, the same for a run's invoices as it raises them and for a
 * review run's drafts as they are approved (contract 16.1): the next invoice messages they used
 * cleared, `invoice.raised` announced and their deliveries recorded (contract 12, 14.2: outboxes,
 * in the caller's transaction). A final bill is marked invoiced as its invoice is written, a
 * review run's as drafted (`markFinalInvoiced`), not when approved. Their credit is allocated
 * by the caller with the step's other customers, then those raised overdue and still unpaid are
 * announced so (`announceRaisedOverdue`, bill-partition.ts).
 */
export async function finaliseRaised(ctx: PlatformContext, store: Store, invoices: readonly Invoice[], customers: ReadonlyMap<string, RunCustomer>, now: Stamp): Promise<void> {
  const used: { customerID: string; message: string }[] = []
  for (const invoice of invoices) {
    const customer = customers.get(invoice.customerID!)
    // Cleared only while it is still the customer's next message (see clearNextMessages).
    if (invoice.invoiceMessage && customer?.nextInvoiceMessage === invoice.invoiceMessage) used.push({ customerID: invoice.customerID!, message: invoice.invoiceMessage })
  }
  await clearNextMessages(ctx, store, used)
  // Announced from the rows just written: the database writing each invoice's JSON again took twice as long (bench/RESULTS.md).
  await appendEvents(store, ctx.clock, 'invoice.raised', ctx.resources.get('invoices')!, invoices)
  await recordDeliveries(store, invoices, customers, now)
}

/** The IDs of the invoices raised (or approved) already past their overdue date: stored `Overdue`. */
export const raisedOverdue = (invoices: readonly Invoice[]): string[] => invoices.filter((i) => i.status === 'Overdue').map((i) => i.id)

/**
 * Announces `invoice.overdue` (contract 12) for the invoices a step raised already overdue (a late
 * run's, or a review run's approved late: `raisedOverdue`) that its allocation left `Overdue`.
 * They are stored `Overdue`, so allocation sees no change of status and the invoice-overdue job
 * (which looks for `Unpaid` ones) never takes them: announced here, once, after their
 * `invoice.raised` and the step's allocation; one paid in full by held credit is announced
 * `invoice.paid` by the allocation instead, never overdue. `statuses` are the allocation's
 * (`settleAccounts`); an invoice it did not allocate is as raised. No statement when there are none.
 */
export async function announceRaisedOverdue(store: Store, invoiceIDs: readonly string[], statuses: ReadonlyMap<string, string>, now: Stamp): Promise<void> {
  const overdue = invoiceIDs.filter((id) => (statuses.get(id) ?? 'Overdue') === 'Overdue')
  if (overdue.length) await store.changes.appendEventsOf('invoice.overdue', store.repository('invoices').resource, { id: overdue }, now)
}
