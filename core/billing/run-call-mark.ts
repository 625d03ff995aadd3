import type { BillingRun } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'

/**
 * The run with its call mark (core/ports/call-marks.ts), taken once its calls are rated
 * (`prepareRun`): the run bills the calls marked below it. A run that has one keeps it, so a
 * worker resuming the run bills against the same mark; one a version without marks left
 * running takes one here.
 */
export async function markRunCalls(ctx: PlatformContext, run: BillingRun): Promise<BillingRun> {
  if (typeof run.callMark === 'number') return run
  const callMark = await ctx.store.callMarks.advance()
  return (await ctx.store.repository('billingRuns').update(run.id, { callMark })) ?? { ...run, callMark }
}
