import { maxDate, type DateOnly } from '../dates/date-only.js'
import { rolledRenewalDate } from '../features/feature-terms.js'
import { BillingError } from '../errors.js'
import type { BillingRun } from '../fields/entity.js'
import { effectiveStateOn, type LifecycleEvent } from '../lifecycle/events.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { planLedgerDiff, type BillingCutoff } from './feature-billing.js'
import { reconciledMark } from './reconciled-mark.js'
import { ledgerWrites, mergeWrites } from './ledger-writes.js'
import { billingInputs, type BillingInput } from './billing-inputs.js'
import type { RunCustomer, RunFeature } from './run-fields.js'
import { raiseInvoices } from './raise-invoices.js'
import { appendEvents } from '../history/record-change.js'
import { rateUnratedCalls } from '../rating/rate-unrated-calls.js'
import { billCalls } from './bill-calls.js'
import { hasCreditLimits, refreshCreditAlerts } from '../credit/credit-alerts.js'
import { settleAccounts } from './settle-accounts.js'
import { progressValues, RunProgressCounter, type RunProgress } from './run-progress.js'

/** Ledger rows written before the first refresh of the database's statistics during a run. */
const STATISTICS_FIRST = 5_000
/**
 * Batches a transaction bills before it commits. Batches are small for memory's sake (see
 * `RunOptions.batchFeatures`); a commit has a fixed cost besides the pages it writes, which a
 * few batches per transaction share (bench/billing-run.ts; figures in bench/RESULTS.md), and a
 * transaction of three still holds the write lock only briefly.
 */
const TRANSACTION_BATCHES = 3

/** How a billing run executes. */
export interface RunOptions {
  /** Customers per batch at most (default 500); a transaction bills a few batches. */
  readonly batchSize?: number
  /**
   * Features a batch aims at planning (default 1,000): each batch takes as many customers as
   * had that many features to plan in the batch before (the first guesses ten a customer). A
   * batch's objects live until it is written; kept to about this many features they die in V8's
   * young generation instead of being promoted and collected with the old one. The default is
   * where bench/billing-run.ts measured the least CPU and peak memory (figures in bench/RESULTS.md).
   */
  readonly batchFeatures?: number
  /** Stops between batches; the run resumes from its progress next time. */
  readonly signal?: AbortSignal
  /** Called after each committed step with the run's progress (stored on the run too). */
  readonly onProgress?: (progress: RunProgress) => void
}

/** What a billing run did: its ID and end state, and how many customers, invoices and ledger writes. */
export interface RunOutcome {
  readonly runID: string
  readonly status: 'Complete' | 'Failed' | 'Interrupted'
  readonly customers: number
  readonly invoices: number
  readonly ledgerWrites: number
}

/**
 * Executes the oldest requested billing run, or resumes one a crash left Running. Returns null
 * when there is nothing to do. Callers hold the billing job's lease.
 */
export async function runNextBillingRun(ctx: PlatformContext, options: RunOptions = {}): Promise<RunOutcome | null> {
  const runs = ctx.store.repository('billingRuns')
  const [resumable] = await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Running' }], limit: 1 })
  const [requested] = resumable ? [resumable] : await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Requested' }], limit: 1 })
  if (!requested) return null
  const run =
    requested.status === 'Running'
      ? requested
      : (await runs.update(requested.id, { status: 'Running', commencedDate: ctx.clock.now(), updatedStamp: ctx.clock.now() }))!
  try {
    return await executeBillingRun(ctx, run, options)
  } catch (error) {
    const reason = error instanceof BillingError ? error.message : 'unexpected failure; see the worker log'
    await ctx.store.transaction(async (store) => {
      const failed = await store.repository('billingRuns').update(run.id, { status: 'Failed', failureReason: reason, estimatedCompletion: null, completedDate: ctx.clock.now(), updatedStamp: ctx.clock.now() })
      if (failed) await appendEvents(store, ctx.clock, 'billing_run.failed', ctx.resources.get('billingRuns')!, [failed])
    })
    throw error
  }
}

async function executeBillingRun(ctx: PlatformContext, run: BillingRun, options: RunOptions): Promise<RunOutcome> {
  const batchSize = options.batchSize ?? 500
  const batchFeatures = options.batchFeatures ?? 1_000
  let pageSize = Math.min(batchSize, Math.ceil(batchFeatures / 10))
  // A run is requested only with a cutoff (billing-runs.ts); one without has nothing to bill through.
  const cutoff = run.cutoffDate
  if (!cutoff) throw new BillingError('invalid_field', `Billing run ${run.id} has no cutoffDate`, 'Give the run a cutoffDate before requesting it.')
  let after = run.progressCustomerID ?? '0'
  let customers = 0
  let invoices = 0
  let writes = 0
  const resumed = after !== '0'
  const progress = new RunProgressCounter(run.id, ctx.clock.now(), await ctx.store.ledger.runCustomerCount(after), {
    customers: resumed ? Number(run.customersDone ?? 0) : 0,
    invoices: resumed ? Number(run.invoiceCount ?? 0) : 0,
  })
  await ctx.store.repository('billingRuns').update(run.id, progressValues(progress.at(ctx.clock.now())))
  if (!resumed) await rateUnratedCalls(ctx, cutoff)
  await rollRenewals(ctx, cutoff)
  const numbers: NumberSettings = { minimums: await ctx.store.receivables.anyNumberMinimums(), creditLimits: await ctx.store.creditControl.anyNumberCreditLimits() }
  // Statistics are refreshed at the start and each time the run has doubled what it wrote.
  await ctx.store.ledger.refreshStatistics()
  let refreshAt = STATISTICS_FIRST
  for (;;) {
    if (options.signal?.aborted) return { runID: run.id, status: 'Interrupted', customers, invoices, ledgerWrites: writes }
    if (writes >= refreshAt) {
      await ctx.store.ledger.refreshStatistics()
      refreshAt = writes * 2
    }
    const step = await ctx.store.transaction(async (store) => {
      const done = { last: after, size: pageSize, customers: 0, invoices: 0, writes: 0, finished: false }
      for (let b = 0; b < TRANSACTION_BATCHES && !(b > 0 && options.signal?.aborted); b++) {
        const page = await store.ledger.runCustomers(done.last, done.size)
        if (page.length === 0) {
          done.finished = true
          break
        }
        const batch = await billBatch(ctx, store, run, cutoff, page, numbers)
        // Once the batch's objects are gone: held credit allocated to its new invoices, then the
        // credit alerts of its customers with a limit (contract 10.3, 10.6).
        await settleAccounts(store, batch.settle, ctx.clock.today(), ctx.clock.now(), { alerts: false })
        await refreshCreditAlerts(store, batch.limited, ctx.clock.now(), { candidates: true })
        done.last = page.at(-1)!.id
        done.customers += page.length
        done.invoices += batch.invoices
        done.writes += batch.writes
        // Sized from this batch's planned features per customer: memory follows what is planned,
        // and a feature skipped as reconciled holds little (a rerun of a cutoff takes whole pages).
        done.size = batch.planned === 0 ? batchSize : Math.max(1, Math.min(batchSize, Math.floor((batchFeatures * page.length) / batch.planned)))
      }
      if (done.customers > 0) {
        const values = progressValues(progress.at(ctx.clock.now(), { customers: done.customers, invoices: done.invoices }))
        await store.repository('billingRuns').update(run.id, { progressCustomerID: done.last, ...values })
      }
      return done
    })
    after = step.last
    pageSize = step.size
    customers += step.customers
    invoices += step.invoices
    writes += step.writes
    progress.add(step.customers, step.invoices)
    if (step.customers > 0) options.onProgress?.(progress.at(ctx.clock.now()))
    if (step.finished) break
  }
  const totals = await ctx.store.ledger.runInvoiceTotals(run.id)
  const { customersDone } = progress.at(ctx.clock.now())
  // The run's completion and its event commit together (contract 12).
  await ctx.store.transaction(async (store) => {
    await store.repository('billingRuns').update(run.id, {
      status: 'Complete',
      invoiceAmount: totals.amount,
      invoiceCount: totals.count,
      customersTotal: customersDone,
      customersDone,
      estimatedCompletion: null,
      completedDate: ctx.clock.now(),
      updatedStamp: ctx.clock.now(),
    })
    const completed = (await store.repository('billingRuns').get(run.id))!
    await appendEvents(store, ctx.clock, 'billing_run.completed', ctx.resources.get('billingRuns')!, [completed])
  })
  return { runID: run.id, status: 'Complete', customers, invoices, ledgerWrites: writes }
}

/**
 * Charges one batch of customers through the cutoff and raises their invoices. A feature whose
 * reconciled mark matches its inputs is skipped: its ledger already holds what a plan would
 * write (see `reconciledMark`), so neither its ledger rows are read nor is it planned.
 */
async function billBatch(ctx: PlatformContext, store: Store, run: BillingRun, cutoff: DateOnly, customers: RunCustomer[], numbers: NumberSettings) {
  const ids = customers.map((c) => c.id)
  // Few numbers have a call-charge minimum or a credit limit, and most platforms none: they are
  // read per batch only when some number has one (two reads a batch cost the 1,000,000-feature
  // run 25 MB of peak RSS, bench/billing-run.ts), and before the batch's features.
  const minimums = numbers.minimums ? await store.receivables.numberMinimums(ids[0], ids.at(-1)!) : []
  const numberLimited = numbers.creditLimits ? await store.creditControl.withNumberCreditLimitsBetween(ids[0], ids.at(-1)!) : []
  // The batch is every customer from its first ID to its last (a page in ID order).
  const marked = await store.ledger.runFeatures(ids[0], ids.at(-1)!)
  const events = groupEvents(await store.lifecycle.eventsOfCustomers(ids))
  const byID = new Map(customers.map((c) => [c.id, c]))
  const inputs = await billingInputs(store, ctx.presets, marked.map((m) => m.feature), byID)
  const due: { item: RunFeature; customer: RunCustomer; input: BillingInput; at: BillingCutoff; mark: string }[] = []
  for (const { feature: item, mark } of marked) {
    const customer = item.customerID ? byID.get(item.customerID) : undefined
    if (!customer) continue // not of this page (cannot happen while customer IDs only grow)
    const on = featureCutoff(customer, cutoff)
    const state = effectiveStateOn(chainOf(events, item, customer.id), on)
    const at: BillingCutoff = { cutoff: on, chargeable: !state.suspended && state.billable }
    const input = inputs.get(item.id)!
    const inputsMark = reconciledMark(input.feature, input.history, at)
    if (inputsMark !== mark) due.push({ item, customer, input, at, mark: inputsMark })
  }
  const ledger = await store.ledger.engineRows(due.map((d) => d.item.id))
  const now = ctx.clock.now()
  const reconciled = new Map<string, string>()
  const plans = due.map(({ item, customer, input, at, mark }) => {
    const diff = planLedgerDiff(input.feature, input.history, ledger.get(item.id) ?? [], at)
    reconciled.set(item.id, mark)
    return ledgerWrites(item, customer, diff, ctx.presets, now, run.id)
  })
  const merged = { ...mergeWrites(plans), reconciled }
  // New rows are inserted with the invoices, already on them (see raiseInvoices).
  await store.ledger.write({ ...merged, inserts: [] })
  await billCalls(ctx, store, customers, cutoff, events, run.id)
  const raised = await raiseInvoices(ctx, store, run, customers, cutoff, events, merged.inserts, minimums)
  // Charges, calls and invoices change credit alerts; only customers with a limit are measured.
  const limited = new Set([...customers.filter(hasCreditLimits).map((c) => c.id), ...numberLimited])
  return {
    invoices: raised.count,
    settle: raised.settle,
    limited: ids.filter((id) => limited.has(id)),
    planned: due.length,
    writes: merged.inserts.length + merged.updates.length + merged.deletes.length,
  }
}

/**
 * Renewal dates before the cutoff move on by their length (contract 11). Few features have one
 * due, so they are found by an index once a run rather than read with every batch's features.
 */
async function rollRenewals(ctx: PlatformContext, cutoff: DateOnly): Promise<void> {
  for (;;) {
    const due = await ctx.store.terms.renewalsDue(cutoff, 500)
    let moved = 0
    for (const f of due) {
      const renewalDate = rolledRenewalDate(f, cutoff)
      if (renewalDate === null) continue
      await ctx.store.repository('features').update(f.id, { renewalDate, updatedStamp: ctx.clock.now() })
      moved++
    }
    // Each page moves its features past the cutoff; one that moved none (fractional lengths) ends it.
    if (due.length < 500 || moved === 0) return
  }
}

/** Whether any number has a call-charge minimum or a credit limit, as a run starts. */
interface NumberSettings {
  readonly minimums: boolean
  readonly creditLimits: boolean
}

/** A customer in final bill is charged and invoiced through its final-bill date. */
function featureCutoff(customer: RunCustomer, cutoff: DateOnly): DateOnly {
  const finalBill = customer.isFinalBill ? customer.finalBillDate : null
  return finalBill ? maxDate(cutoff, finalBill) : cutoff
}

const NONE: readonly LifecycleEvent[] = []

/** The lifecycle events of a feature and everything above it (most features have none of their own: no copy then). */
function chainOf(events: ReadonlyMap<string, LifecycleEvent[]>, item: RunFeature, customerID: string): readonly LifecycleEvent[] {
  const own = events.get(`features:${item.id}`) ?? NONE
  const number = item.numberID ? (events.get(`numbers:${item.numberID}`) ?? NONE) : NONE
  const service = item.serviceID ? (events.get(`services:${item.serviceID}`) ?? NONE) : NONE
  const customer = events.get(`customers:${customerID}`) ?? NONE
  if (own.length + number.length + service.length === 0) return customer
  return [...own, ...number, ...service, ...customer]
}

function groupEvents(events: readonly (LifecycleEvent & { customerID: string })[]): Map<string, LifecycleEvent[]> {
  const out = new Map<string, LifecycleEvent[]>()
  for (const e of events) {
    const key = `${e.level}:${e.itemId}`
    const list = out.get(key)
    if (list) list.push(e)
    else out.set(key, [e])
  }
  return out
}
