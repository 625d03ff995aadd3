import type { DateOnly } from '../dates/date-only.js'
import type { BillingRun } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { PlannedPartition, RunPartition } from '../ports/run-partitions.js'
import { rateUnratedCalls } from '../rating/rate-unrated-calls.js'
import { rolledRenewalDate } from '../features/feature-terms.js'
import { recordChanges, type Change } from '../history/record-change.js'
import { PartitionSplitter, wholeRun } from './run-partitions.js'
import { progressValues, runProgress } from './run-progress.js'
import type { RunExecution } from './run-execution.js'
import { markRunCalls } from './run-call-mark.js'
import { ratedThrough } from './final-bill-through.js'

/** Customers read a page at a time while a run is split. */
const WEIGHTS_PAGE = 10_000

/**
 * Prepares a run whose `Planning` partition this worker claimed: rates the calls that could not
 * be rated before, moves past renewal dates on, then replaces the partition with the run's partitions (one where the
 * database has no parallel writers). A worker killed while planning leaves the partition to be
 * claimed and planned again after its lease; one that lost the lease meanwhile stores nothing.
 */
export async function planRun(ctx: PlatformContext, run: BillingRun, cutoff: DateOnly, partition: RunPartition, exec: RunExecution): Promise<void> {
  await prepareRun(ctx, cutoff)
  await markRunCalls(ctx, run)
  const after = partition.afterCustomerID
  const { runPartitions } = ctx.store
  const partitions = runPartitions.parallel ? await splitRun(ctx, after, exec.partitionFeatures) : wholeRun(after, await ctx.store.runSource.customerCountAfter(after))
  await ctx.store.transaction(async (store) => {
    if (!(await store.runPartitions.split(partition.id, exec.holder, partitions))) return
    const totals = await store.runPartitions.totals(run.id)
    await store.repository('billingRuns').update(run.id, progressValues(runProgress(run.id, totals, { startedAt: exec.startedAt, customers: 0 }, ctx.clock.now())))
  })
}

/**
 * What a run does before it bills anyone (an invoice preview too, in its rehearsal): rates the
 * calls not yet rated, moves renewal dates on.
 */
export async function prepareRun(ctx: PlatformContext, cutoff: DateOnly): Promise<void> {
  // As far as the run bills calls: a final bill's reach past the cutoff too.
  await rateUnratedCalls(ctx, await ratedThrough(ctx.store, cutoff))
  await rollRenewals(ctx, cutoff)
}

async function splitRun(ctx: PlatformContext, after: string, target: number): Promise<PlannedPartition[]> {
  const splitter = new PartitionSplitter(after, target)
  for (let from = after; ; ) {
    const page = await ctx.store.runPartitions.customerWeights(from, WEIGHTS_PAGE)
    splitter.add(page)
    if (page.length < WEIGHTS_PAGE) return splitter.finish()
    from = page.at(-1)!.id
  }
}

/**
 * Renewal dates before the cutoff move on by their length (contract 11). Few features have one
 * due, so they are found by an index once a run rather than read with every batch's features.
 */
async function rollRenewals(ctx: PlatformContext, cutoff: DateOnly): Promise<void> {
  for (;;) {
    const due = await ctx.store.terms.renewalsDue(cutoff, 500)
    if (due.length === 0) return
    // A page's moves and their history and events (contract 12: the worker's updates, by `system`)
    // commit together, the records in one append for the page.
    const moved = await ctx.store.transaction(async (store) => {
      const features = store.repository('features')
      const changes: Change[] = []
      for (const f of due) {
        const renewalDate = rolledRenewalDate(f, cutoff)
        if (renewalDate === null) continue
        const after = await features.update(f.id, { renewalDate, updatedStamp: ctx.clock.now() })
        if (after) changes.push({ resource: features.resource, action: 'update', before: { ...after, renewalDate: f.renewalDate, updatedStamp: f.updatedStamp }, after })
      }
      await recordChanges(store, ctx.clock, changes)
      return changes.length
    })
    // Each page moves its features past the cutoff; one that moved none (fractional lengths) ends it.
    if (due.length < 500 || moved === 0) return
  }
}
