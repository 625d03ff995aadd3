import { minDate, type DateOnly } from '../dates/date-only.js'
import type { BillingRun } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { endOfDay } from '../rating/rate-unrated-calls.js'

/** What bounds the calls a run bills: below its mark, started at or after `callsSince` (null: any), through `callsCutoffOf`. */
export type RunCallBounds = Pick<BillingRun, 'id' | 'callMark' | 'callsSince' | 'transactionCutoffDate'>

/**
 * The last day a run with `cutoff` bills calls through (a customer in final bill aside:
 * `billedThrough`): the cutoff, or an earlier transactionCutoffDate. Its `Call Charges` are
 * other transactions, invoiced through that date (contract 9.5), so the calls after it are left
 * whole to the next run, which reads from there (`callsSinceRun`); a later one bills no call
 * past the cutoff, as calls are rated only up to it.
 */
export const callsCutoffOf = (run: Pick<BillingRun, 'transactionCutoffDate'>, cutoff: DateOnly): DateOnly => minDate(cutoff, run.transactionCutoffDate ?? cutoff)

/**
 * The run with its call mark (core/ports/call-marks.ts), taken once its calls are rated
 * (`prepareRun`): the run bills the calls marked below it. A run that has one keeps it, so a
 * worker resuming the run bills against the same mark; one a version without marks left
 * running takes one here.
 */
export async function markRunCalls(ctx: PlatformContext, run: BillingRun): Promise<BillingRun> {
  if (typeof run.callMark === 'number') return run
  const callMark = await ctx.store.callMarks.advance()
  const last = await lastMarkedRun(ctx.store)
  // Runs read notes from the last completed run's mark on: the older ones would only pile up, one
  // an import. Forgotten by runs only: a preview deleting them would hold their rows' locks, and
  // previews side by side must not wait for each other (preview-invoice.ts).
  if (typeof last?.callMark === 'number') await ctx.store.callMarks.forgetBefore(last.callMark)
  const callsSince = await callsSinceRun(ctx.store, last)
  return (await ctx.store.repository('billingRuns').update(run.id, { callMark, callsSince })) ?? { ...run, callMark, callsSince }
}

/**
 * The earliest start of a call a run may bill. After the last completed run that had a mark,
 * every call it could see and left unbilled started after its calls' cutoff, or was left for a number
 * not billable then (noted under its mark), or was made billable since (a late file, a rating,
 * a restore: marked at or above its mark, and noted): so the earliest of its cutoff's end and
 * those notes. Null (read every start) when no completed run had a mark.
 */
export async function callsSinceLastRun(store: Store): Promise<BillingRun['callsSince']> {
  return callsSinceRun(store, await lastMarkedRun(store))
}

/** `callsSinceLastRun` for the last completed run with a mark (`run`), already read. */
async function callsSinceRun(store: Store, run: BillingRun | undefined): Promise<BillingRun['callsSince']> {
  if (!run || typeof run.callMark !== 'number' || !run.cutoffDate) return null
  const after = endOfDay(callsCutoffOf(run, run.cutoffDate))
  const noted = await store.callMarks.earliestSince(run.callMark)
  return (noted !== null && noted < after ? noted : after) as BillingRun['callsSince']
}

/** The completed run with the highest call mark, if any. */
async function lastMarkedRun(store: Store): Promise<BillingRun | undefined> {
  // A run a month: a platform's whole history of runs is a small read.
  const complete = await store.repository('billingRuns').list({
    where: [
      { op: 'eq', column: 'status', value: 'Complete' },
      { op: 'isNull', column: 'callMark', value: false },
    ],
    limit: 100_000,
    storedOnly: true,
  })
  return complete.reduce<(typeof complete)[number] | undefined>((a, r) => (!a || (r.callMark as number) > (a.callMark as number) ? r : a), undefined) as BillingRun | undefined
}
