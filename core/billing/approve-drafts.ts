import type { BillingRun, Invoice } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { hasCreditLimits } from '../credit/credit-alerts.js'
import { numberInvoices } from '../numbering/number-invoices.js'
import type { BatchOutcome } from './bill-batch.js'
import { finaliseRaised, raisedPaymentState } from './finalise-invoices.js'
import type { RunCustomer } from '../ports/run-fields.js'

/** Rows a draft may carry that drafting added (contract 10.4's minimums): a discarded draft takes them with it. */
export const DRAFTING_ADDS = ['Minimum Charge', 'Call Charges Minimum'] as const

/**
 * Finalises the drafts of a page of an approved review run's customers (contract 16.1), as a run
 * without review raises its invoices: numbered from the same counter (`numberInvoices`), their
 * transactions approved, then `finaliseRaised` (final bills, messages, `invoice.raised`,
 * deliveries); the caller allocates their credit with the step, as for a run's batch
 * (bill-partition.ts). Each draft is billed as drafted: its lines and totals are the ones
 * reviewed, whatever changed since (README, "Review runs").
 */
export async function approveDrafts(ctx: PlatformContext, store: Store, run: BillingRun, customers: readonly RunCustomer[]): Promise<BatchOutcome> {
  const ids = customers.map((c) => c.id)
  const drafts = await store.repository('invoices').list({
    where: [
      { op: 'eq', column: 'billingRunID', value: run.id },
      { op: 'in', column: 'customerID', values: ids },
      { op: 'eq', column: 'status', value: 'Draft' },
    ],
    limit: ids.length,
  })
  const today = ctx.clock.today()
  const now = ctx.clock.now()
  const finals = drafts.map((d) => ({
    values: { ...d, ...raisedPaymentState(d.totalAmount!, d.invoiceDate!, d.overdueDate ?? null, today), updatedStamp: now },
    transactionIDs: d.transactionIDs ?? [],
    inserted: [],
  }))
  const invoices = (await numberInvoices(ctx, store, finals)).map((n) => n.values as Invoice)
  await store.ledger.finaliseDrafts(run.id, invoices)
  await finaliseRaised(ctx, store, invoices, new Map(customers.map((c) => [c.id, c])), now)
  const invoiced = invoices.map((i) => i.customerID!)
  const limited = new Set(customers.filter(hasCreditLimits).map((c) => c.id))
  return {
    invoices: invoices.length,
    invoiced,
    settle: invoices.filter((i) => i.totalAmount! < 0n).map((i) => i.customerID!),
    touched: invoiced,
    limited: invoiced.filter((id) => limited.has(id)),
    callsBilled: [],
    writes: 0,
    written: Promise.resolve(),
  }
}
