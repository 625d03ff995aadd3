import { BillingError } from '../errors.js'
import type { BillingRun } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { appendEvents, recordChanges } from '../history/record-change.js'
import { claimCommissionCredits } from './commission-credits.js'
import { billPartition } from './bill-partition.js'
import { planRun } from './plan-run.js'
import { PARTITION_FEATURES } from './run-partitions.js'
import { RunExecution } from './run-execution.js'
import type { RunProgress } from './run-progress.js'

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
  /**
   * Features a partition of the run aims at (default `PARTITION_FEATURES`), where several
   * workers bill one run (Postgres): each claims partitions until none is left.
   */
  readonly partitionFeatures?: number
  /**
   * Who claims partitions (default a new random name): unique to this execution, since a
   * partition's lease is extended and given up by its holder's name.
   */
  readonly holder?: string
  /** How long a claimed partition stays with this worker without a committed step (default 60 s). */
  readonly leaseMs?: number
  /** Stops between batches; the run resumes from its progress next time. */
  readonly signal?: AbortSignal
  /** Called after each committed step with the run's progress (stored on the run too). */
  readonly onProgress?: (progress: RunProgress) => void
}

/**
 * How often a worker that finds another splitting the run looks again for its partitions. They
 * exist once the split commits; waiting for the next poll instead (15 s by default) left a run
 * the split took a moment to bill to the worker that split it, and the others idle.
 */
const PLANNING_RECHECK_MS = 200

/**
 * What a billing run's execution did: the run's ID and where it stands, and how many customers,
 * invoices and ledger writes this execution made. `Running`: this worker found no partition left
 * to claim while others still bill theirs (the last of them completes the run).
 */
export interface RunOutcome {
  readonly runID: string
  readonly status: 'Complete' | 'Review' | 'Failed' | 'Interrupted' | 'Running'
  readonly customers: number
  readonly invoices: number
  readonly ledgerWrites: number
}

/**
 * Takes part in the billing run in progress (starting the oldest requested one): claims its
 * partitions one after another and bills them, with every other worker doing the same, and
 * completes the run when its last partition is done. Returns null when there was nothing to do
 * here (no run, or every partition held by another worker).
 */
export async function runNextBillingRun(ctx: PlatformContext, options: RunOptions = {}): Promise<RunOutcome | null> {
  const run = await runInProgress(ctx)
  if (!run) return null
  // A run is requested only with a cutoff (billing-runs.ts); one without has nothing to bill through.
  const cutoff = run.cutoffDate
  const exec = new RunExecution(
    options.holder ?? ctx.random.uuid(),
    options.leaseMs ?? 60_000,
    options.batchSize ?? 500,
    options.batchFeatures ?? 1_000,
    options.partitionFeatures ?? PARTITION_FEATURES,
    ctx.clock.now(),
    { minimums: await ctx.store.receivables.anyNumberMinimums(), creditLimits: await ctx.store.creditControl.anyNumberCreditLimits() },
    options.signal,
    options.onProgress,
  )
  const outcome = (status: RunOutcome['status']): RunOutcome => ({ runID: run.id, status, customers: exec.customers, invoices: exec.invoices, ledgerWrites: exec.writes })
  // The partition this worker bills, given up if it fails (below).
  let held: string | null = null
  try {
    if (!cutoff) throw new BillingError('invalid_field', `Billing run ${run.id} has no cutoffDate`, 'Give the run a cutoffDate before requesting it.')
    for (;;) {
      if (options.signal?.aborted) return outcome('Interrupted')
      // A run failed by another worker is left alone.
      // Read again: a run another worker (or this one) planned carries its call mark since.
      const current = await ctx.store.repository('billingRuns').get(run.id)
      if (!current || current.status !== run.status) break
      const partition = await ctx.store.runPartitions.claim(run.id, exec.holder, exec.leaseMs)
      if (!partition) {
        // Another worker holds the run's Planning partition: its partitions come when it commits
        // (or the partition is claimable here once that worker's lease lapses).
        if (!(ctx.store.runPartitions.parallel && (await ctx.store.runPartitions.totals(run.id)).planning)) break
        await new Promise((resolve) => setTimeout(resolve, PLANNING_RECHECK_MS))
        continue
      }
      exec.claimed += 1
      held = partition.id
      if (partition.status === 'Planning') await planRun(ctx, run, cutoff, partition, exec)
      else await billPartition(ctx, current, cutoff, partition, exec)
      held = null
    }
    if (options.signal?.aborted) return outcome('Interrupted')
    const completed = await completeRun(ctx, run)
    if (completed) return outcome(completed)
    return exec.claimed > 0 ? outcome('Running') : null
  } catch (error) {
    const reason = error instanceof BillingError ? error.message : 'unexpected failure; see the worker log'
    await ctx.store.transaction(async (store) => {
      const runs = store.repository('billingRuns')
      const before = await runs.get(run.id)
      const failed = before && (await runs.update(run.id, { status: 'Failed', failureReason: reason, estimatedCompletion: null, completedDate: ctx.clock.now(), updatedStamp: ctx.clock.now() }))
      if (!failed) return
      await recordStatusChange(ctx, store, before, failed)
      await appendEvents(store, ctx.clock, 'billing_run.failed', ctx.resources.get('billingRuns')!, [failed])
    })
    // Given up once the run is Failed (no worker takes a failed run up again): a failed review
    // run is decided only when no worker holds its partitions (failed-review-runs.ts). Not given
    // up here, the lease lapses on its own.
    if (held) await ctx.store.runPartitions.release(held, exec.holder).catch(() => undefined)
    throw error
  }
}

/**
 * The run in progress: the Running one, an Approved one, or the oldest Requested one, started here. A run
 * without partitions gets its `Planning` partition, covering every customer after the run's
 * progress (a run a version without partitions left Running resumes where it stopped).
 */
async function runInProgress(ctx: PlatformContext): Promise<BillingRun | null> {
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const runs = store.repository('billingRuns')
    const [running] = await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Running' }], limit: 1 })
    // An approved review run is finalised over the partitions it was drafted in, restarted by its approval (contract 16.1).
    const [approved] = running ? [] : await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Approved' }], limit: 1 })
    if (approved) return approved
    const [requested] = running ? [] : await runs.list({ where: [{ op: 'eq', column: 'status', value: 'Requested' }], limit: 1 })
    const started = requested && (await runs.update(requested.id, { status: 'Running', commencedDate: ctx.clock.now(), updatedStamp: ctx.clock.now() }))
    if (started) await recordStatusChange(ctx, store, requested, started)
    const run = running ?? started
    if (!run) return null
    if ((await store.runPartitions.totals(run.id)).partitions === 0) {
      await store.runPartitions.create(run.id, [{ status: 'Planning', afterCustomerID: run.progressCustomerID ?? '0', lastCustomerID: null, customersTotal: 0 }])
    }
    return run
  })
}

/**
 * Completes a run whose partitions are all done; null when one is still open (or the run moved
 * on). Every worker tries after its last partition: the one that finished the last partition
 * sees them all done, and the run's lock lets one complete it. A review run's drafting stops at
 * `Review` (contract 16.1), its approval completes it.
 */
async function completeRun(ctx: PlatformContext, run: BillingRun): Promise<'Complete' | 'Review' | null> {
  const runID = run.id
  if ((await ctx.store.runPartitions.totals(runID)).open > 0) return null
  const totals = await ctx.store.ledger.runInvoiceTotals(runID)
  const status = run.review && run.status === 'Running' ? 'Review' : 'Complete'
  // The run's completion and its event commit together (contract 12).
  return ctx.store.transaction(async (store) => {
    await store.lock('billing-runs')
    const runs = store.repository('billingRuns')
    const before = await runs.get(runID)
    if (before?.status !== run.status) return null
    const partitions = await store.runPartitions.totals(runID)
    if (partitions.open > 0) return null
    const after = await runs.update(runID, {
      status,
      invoiceAmount: totals.amount,
      invoiceCount: totals.count,
      customersTotal: partitions.customersDone,
      customersDone: partitions.customersDone,
      estimatedCompletion: null,
      completedDate: ctx.clock.now(),
      updatedStamp: ctx.clock.now(),
    })
    // Locked and read above, so still there.
    await recordStatusChange(ctx, store, before, after!)
    if (status === 'Complete') {
      // The credit notes its commission statement claws back are fixed as it completes.
      await claimCommissionCredits(store, runID, ctx.presets)
      await appendEvents(store, ctx.clock, 'billing_run.completed', ctx.resources.get('billingRuns')!, [after!])
    }
    return status
  })
}

/**
 * The history entry and `billing_run.updated` event of a change of a run's status the worker
 * makes (contract 12: `apiKeyName` is `system` outside a request), in the caller's transaction.
 * Only status changes are recorded: progress counters (`customersDone`, `estimatedCompletion`,
 * ...) change after every batch, and an entry for each would bury the run's history.
 */
async function recordStatusChange(ctx: PlatformContext, store: Store, before: BillingRun, after: BillingRun): Promise<void> {
  await recordChanges(store, ctx.clock, [{ resource: ctx.resources.get('billingRuns')!, action: 'update', before, after }])
}
