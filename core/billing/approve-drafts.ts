import type { BillingRun, Invoice } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { hasCreditLimits } from '../credit/credit-alerts.js'
import { numberInvoices } from '../numbering/number-invoices.js'
import type { BatchOutcome } from './bill-batch.js'
import { finaliseRaised, raisedOverdue, raisedPaymentState } from './finalise-invoices.js'
import type { RunCustomer } from '../ports/run-fields.js'

/**
 * Rows a run derives at its cutoff, not charges it finds: its calls' `Call Charges` (bill-calls.ts:
 * each covers its calls by the range it records, no stamp on the calls) and drafting's minimums
 * (contract 10.4). A discarded run deletes them (contract 16.1), so its calls are unbilled again
 * and a corrected run derives them at its own cutoff; the charges it found stay, unapproved.
 */
export const RUN_DERIVES = ['Call Charges', 'Minimum Charge', 'Call Charges Minimum'] as const

/** A page of an approved review run's customers in ID order and their drafts (`readDrafts`). */
export interface DraftPage {
  readonly customers: readonly RunCustomer[]
  readonly drafts: readonly Invoice[]
  /** Those of the drafts whose transactions do not all name the run yet (`Ledger.draftsCarrying`). */
  readonly carrying: ReadonlySet<string>
}

/**
 * The next `limit` customers after `afterID` (through `lastID`) and their drafts of `run`, on
 * `reads`. As a run's page (`readPage`), a step reads the next one this way while the batch in
 * hand is written: nothing an approval writes is read here (a page's drafts and customers are
 * its own), so on Postgres the server finalises one batch while this process reads and decodes
 * the next (bench/review-run.ts).
 */
export async function readDrafts(reads: Store, run: BillingRun, afterID: string, limit: number, lastID: string | null): Promise<DraftPage> {
  return draftsOf(reads, run, await reads.runSource.customersAfter(afterID, limit, lastID))
}

/**
 * The drafts of `run` of customers read before (`readDrafts`), on `reads`. Apart, for customers
 * read before the step's transaction began: where `reads` reads its pages on another connection
 * and the rest in the transaction (a SQLite file), only those pages may be read across a commit.
 */
export async function draftsOf(reads: Store, run: BillingRun, customers: RunCustomer[]): Promise<DraftPage> {
  if (customers.length === 0) return { customers, drafts: [], carrying: new Set() }
  const ids = customers.map((c) => c.id)
  const drafts = await reads.repository('invoices').list({
    where: [
      { op: 'eq', column: 'billingRunID', value: run.id },
      { op: 'in', column: 'customerID', values: ids },
      { op: 'eq', column: 'status', value: 'Draft' },
    ],
    limit: ids.length,
  })
  return { customers, drafts, carrying: await reads.ledger.draftsCarrying(run.id, drafts.map((d) => d.id)) }
}

/**
 * Finalises the drafts of a page of an approved review run's customers (contract 16.1), as a run
 * without review raises its invoices: numbered from the same counter (`numberInvoices`), their
 * transactions approved, then `finaliseRaised` (final bills, messages, `invoice.raised`,
 * deliveries); the caller allocates their credit with the step, as for a run's batch, then
 * announces those approved overdue and still unpaid (bill-partition.ts). Each draft is billed as
 * drafted: its lines and totals are the ones reviewed, whatever changed since (README, "Review
 * runs"). As `writeBatch`, it returns once the writes are sent, not answered (`written`): the
 * caller reads the next page meanwhile.
 */
export async function approveDrafts(ctx: PlatformContext, store: Store, run: BillingRun, page: DraftPage): Promise<BatchOutcome> {
  const { customers, drafts, carrying } = page
  const today = ctx.clock.today()
  const now = ctx.clock.now()
  const finals = drafts.map((d) => ({
    values: { ...d, ...raisedPaymentState(d.totalAmount!, d.invoiceDate!, d.overdueDate ?? null, today), updatedStamp: now },
    transactionIDs: d.transactionIDs ?? [],
    inserted: [],
  }))
  const invoices = (await numberInvoices(ctx, store, finals)).map((n) => n.values as Invoice)
  const byID = new Map(customers.map((c) => [c.id, c]))
  // Not one after the other: where the transaction sends writes ahead (Postgres) the drafts'
  // update is sent at once and the events and deliveries go behind it at the server. Both are
  // settled before a failure is thrown, so nothing is still sent once the step rolls back.
  const written = Promise.allSettled([store.ledger.finaliseDrafts(run.id, invoices, carrying), finaliseRaised(ctx, store, invoices, byID, now)]).then((results) => {
    for (const r of results) if (r.status === 'rejected') throw r.reason
  })
  // Failed, it is thrown where the caller awaits it; a rejection nobody awaits yet would end the process.
  written.catch(() => undefined)
  const invoiced = invoices.map((i) => i.customerID!)
  const limited = new Set(customers.filter(hasCreditLimits).map((c) => c.id))
  return {
    invoices: invoices.length,
    invoiced,
    settle: invoices.filter((i) => i.totalAmount! < 0n).map((i) => i.customerID!),
    raisedOverdue: raisedOverdue(invoices),
    touched: invoiced,
    limited: invoiced.filter((id) => limited.has(id)),
    callsBilled: [],
    writes: 0,
    written,
  }
}
