import { addDays, type DateOnly } from '../dates/date-only.js'
import type { Call } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import { isRated, rateRecord } from './rate-record.js'
import { reallocateAllowances } from './reallocate-allowances.js'
import { loadBatchContext, loadRatingShared, TouchedMonths, type RatingShared } from './rating-context.js'
import type { UsageRecord } from './usage-record.js'

/** The first instant after the cutoff day, as stamp text: calls started before it are billed. */
export const endOfDay = (date: DateOnly): string => `${addDays(date, 1)}T00:00:00.000Z`

/**
 * Rates again the calls that could not be rated (a number or tariff may exist now), for calls
 * started up to the cutoff, in pages; the months of those that may use an allowance are then
 * allocated again.
 */
export async function rateUnratedCalls(ctx: PlatformContext, cutoff: DateOnly): Promise<number> {
  const calls = ctx.store.repository('calls')
  // Loaded at the first unrated call only: most runs have none to rate.
  let shared: RatingShared | null = null
  const touched = new TouchedMonths()
  let after: string | undefined
  let rated = 0
  for (;;) {
    const page = await calls.list({
      where: [
        { op: 'eq', column: 'rated', value: false },
        { op: 'eq', column: 'deleted', value: false },
        // Ignored calls (contract 17.1) are never billed, whatever changes later.
        { op: 'isNull', column: 'ignoredReason', value: true },
        { op: 'lte', column: 'startTime', value: endOfDay(cutoff) },
      ],
      idAfter: after,
      limit: 1000,
    })
    if (page.length === 0) break
    shared ??= await loadRatingShared(ctx.store.rating, ctx.presets.discountPlans)
    // Billable from now: a run's Call Charges rows marked before this never claim it (call-marks.ts).
    const callMark = await ctx.store.callMarks.current()
    let earliest: string | null = null
    const records = page.map((call) => ({ call, record: asRecord(call) }))
    const context = await loadBatchContext(ctx.store.rating, shared, records.flatMap((r) => (r.record ? [r.record] : [])))
    for (const { call, record } of records) {
      const result = record && rateRecord(record, context, context.allowance)
      if (result && 'ignoredReason' in result) {
        // A number found now whose carrierCallAllocation names another carrier: kept, never billed (contract 17.1), as an import keeps it.
        await calls.update(call.id, { customerID: result.customerID, numberID: result.numberID, ignoredReason: result.ignoredReason, unbilledReason: null, updatedStamp: ctx.clock.now() })
        continue
      }
      if (!result || !isRated(result)) continue
      const allowanceSeconds = result.allowanceSeconds
      await calls.update(call.id, {
        customerID: result.customerID,
        numberID: result.numberID,
        tariffID: result.tariffID,
        pricingFeatureID: result.pricingFeatureID,
        cost: result.cost,
        ratedDuration: result.ratedDuration,
        timeBand: result.timeBand,
        // Priced in a CDR number's band or origination (`CdrTerms`): kept, as an import keeps them.
        chargeBand: result.chargeBand,
        origination: result.origination,
        allowanceSeconds,
        rated: true,
        unbilledReason: null,
        callMark,
        updatedStamp: ctx.clock.now(),
      })
      if (allowanceSeconds !== null) touched.add(result.customerID, record.startTime)
      if (earliest === null || record.startTime < earliest) earliest = record.startTime
      rated++
    }
    if (earliest !== null) await ctx.store.callMarks.noteSince(callMark, earliest)
    after = page.at(-1)!.id
  }
  if (shared && touched.customers > 0) await reallocateAllowances(ctx.store.rating, shared, touched, ctx.clock.now())
  return rated
}

/** A stored call as the rater reads a record; null for one without a start or a class (an import always writes both). */
function asRecord(call: Call): UsageRecord | null {
  if (!call.startTime || !call.callType) return null
  return {
    lineNumber: 0,
    callingNumber: call.callingNumber ?? '',
    dialledNumber: call.dialledNumber ?? '',
    startTime: call.startTime,
    durationSeconds: call.durationSeconds ?? 0,
    chargeBand: call.chargeBand ?? '',
    callClass: call.callType,
    carrier: call.carrier ?? '',
    bytes: call.bytes,
    events: call.events,
    origination: call.origination ?? 'fixed',
    recorded: call.recorded ?? false,
    externalID: null,
    // What the carrier charged, kept as the call's carrierCost: a call its tariff gives no rate
    // is priced by the markup fallbacks from it (contract 9.6), as at import.
    wholesaleCost: call.carrierCost,
  }
}
