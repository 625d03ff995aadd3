import { BillingError, notFound } from '../errors.js'
import { parseDate, type DateOnly } from '../dates/date-only.js'
import type { BillingRun, Invoice, Transaction } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { planBatch, readPage, writeBatch } from './bill-batch.js'
import { prepareRun } from './plan-run.js'
import { callsSinceLastRun } from './run-call-mark.js'

/** Fields of a previewed invoice and its lines that only a stored one has (IDs the rehearsal made up, stamps, approval). */
export const STORED_ONLY = ['id', 'billingRunID', 'invoiceID', 'createdStamp', 'updatedStamp', 'approved', 'invoiceNumber', 'sentDate', 'status', 'amountPaid', 'amountOutstanding', 'paidDate', 'transactionIDs'] as const

/** An invoice as a run would raise it now, without its stored-only fields. */
export type PreviewInvoice = Omit<Invoice, (typeof STORED_ONLY)[number]>
/** A line of it: a transaction already in the ledger keeps its ID as `transactionID`; one the run would add has none. */
export type PreviewLine = Omit<Transaction, (typeof STORED_ONLY)[number]> & { readonly transactionID: string | null }

/** What `previewInvoice` answers: the invoice and its lines, or none and why. */
export interface InvoicePreview<I = PreviewInvoice, L = PreviewLine> {
  readonly customerID: string
  readonly cutoffDate: DateOnly
  readonly invoice: I | null
  readonly lines: readonly L[]
  /** Why no invoice would be raised (null when one would). */
  readonly reason: string | null
}

/**
 * The invoice a billing run with `cutoffDate` would raise for the customer now (contract 16.1),
 * made by the run's own code with nothing kept: a run of this one customer (its preparation,
 * `planBatch` and `writeBatch`, drafting as a review run does) in a rehearsal (`Store.rehearse`),
 * read back, then rolled back. The draft's lines and totals are those of a final invoice: only
 * its number and allocation wait for an approval. `inside`, when given, reads more in the
 * rehearsal before it is undone (the invoice's document).
 */
export async function previewInvoice<T = null>(
  ctx: PlatformContext,
  customerID: string,
  input: { readonly cutoffDate?: unknown },
  inside?: (ctx: PlatformContext, invoiceID: string) => Promise<T>,
): Promise<InvoicePreview & { readonly extra: T | null }> {
  // An unknown customer is 404 whatever the query says, as every item route answers.
  if (!(await ctx.store.repository('customers').get(customerID))) throw notFound('customer', customerID)
  const cutoff = parseDate(input.cutoffDate)
  if (!cutoff) throw new BillingError('invalid_query', `cutoffDate must be a date (YYYY-MM-DD), got ${JSON.stringify(input.cutoffDate ?? null)}`, 'Give ?cutoffDate=YYYY-MM-DD: the cutoff of the run to preview.')
  const last = (await ctx.store.ledger.lastInvoiceDates([customerID])).get(customerID)
  if (last && cutoff < last) {
    throw new BillingError(
      'invalid_query',
      `cutoffDate ${cutoff} is before customer ${customerID}'s last invoice, dated ${last}: a run with that cutoff would bill nothing already invoiced, and cannot go back`,
      `Give a cutoffDate on or after ${last}.`,
    )
  }
  return ctx.store.rehearse(async (store) => {
    const inner: PlatformContext = { ...ctx, store }
    const run = await store.repository('billingRuns').insert({
      name: 'invoice preview',
      status: 'Running',
      review: true,
      cutoffDate: cutoff,
      invoiceDate: ctx.clock.today(),
      createdStamp: ctx.clock.now(),
      updatedStamp: ctx.clock.now(),
    })
    await prepareRun(inner, cutoff)
    // Above every call written so far, without moving the counter on: a preview rehearses, and
    // previews side by side must not wait for each other (core/ports/call-marks.ts).
    const callMark = (await store.callMarks.current()) + 1
    await billOne(inner, store, { ...run, callMark, callsSince: await callsSinceLastRun(store) }, cutoff, customerID)
    const [invoice] = await store.repository('invoices').list({ where: [{ op: 'eq', column: 'billingRunID', value: run.id }], limit: 1 })
    if (!invoice) return { customerID, cutoffDate: cutoff, invoice: null, lines: [], reason: NOTHING_RAISED, extra: null }
    const lines = await store.repository('transactions').list({ where: [{ op: 'eq', column: 'invoiceID', value: invoice.id }], limit: 100_000 })
    // A draft's rows the ledger held before keep their own run; those the run adds name it (raise-invoices.ts).
    const kept = new Set(lines.filter((t) => t.billingRunID !== run.id).map((t) => t.id))
    return {
      customerID,
      cutoffDate: cutoff,
      invoice: strip(invoice) as PreviewInvoice,
      lines: lines.map((t) => ({ ...(strip(t) as Omit<PreviewLine, 'transactionID'>), transactionID: kept.has(t.id) ? t.id : null })),
      reason: null,
      extra: inside ? await inside(inner, invoice.id) : null,
    }
  })
}

const NOTHING_RAISED = 'a run with this cutoff would raise no invoice for this customer now: nothing to invoice, not due on its billing cycle, not billable, or its low invoice carried forward'

/** One customer billed as a run's batch of one: the run's planning and writing, unchanged. */
async function billOne(ctx: PlatformContext, store: Store, run: BillingRun, cutoff: DateOnly, customerID: string): Promise<void> {
  const page = await readPage(store, String(BigInt(customerID) - 1n), 1, customerID)
  const batch = await planBatch(ctx, store, run, cutoff, page)
  const numbers = { minimums: await store.receivables.anyNumberMinimums(), creditLimits: false }
  const outcome = await writeBatch(ctx, store, run, cutoff, batch, numbers)
  await outcome.written
}

function strip<T extends object>(item: T): Partial<T> {
  const out: Record<string, unknown> = { ...(item as Record<string, unknown>) }
  for (const name of STORED_ONLY) delete out[name]
  return out as Partial<T>
}
