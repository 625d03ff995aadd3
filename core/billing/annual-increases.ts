import { addMonths, type DateOnly } from '../dates/date-only.js'
import type { Feature } from '../fields/entity.js'
import { recordChanges } from '../history/record-change.js'
import { add, increaseByPercent, withinMoneyBound, type Money } from '../money/money.js'
import type { PlatformContext } from '../platform.js'
import type { IncreaseProfile } from '../presets/product-maps.js'
import { changeChargeLocked } from './change-charge.js'
import { refreshAfterCharges } from '../credit/credit-alerts.js'
import { effectiveHistory, versionAt } from './charge-history.js'
import { historyOf } from './stored-feature.js'

type Holder = Pick<Feature, 'annualIncreaseReferenceDate' | 'annualIncreaseProfile'>

/**
 * The reference date and profile an annual increase follows (contract 11): each is the feature's
 * own, else its number's or service's, else its customer's, resolved independently.
 */
export function effectiveIncrease(levels: readonly (Holder | null)[]): { date: DateOnly | null; profile: string | null } {
  const first = <K extends keyof Holder>(k: K) => levels.find((l) => l?.[k] != null)?.[k] ?? null
  return { date: first('annualIncreaseReferenceDate'), profile: first('annualIncreaseProfile') }
}

/** The charge a profile raises `charge` to: by the percentage (half up to 4 places) or by the amount. */
export function increasedCharge(charge: Money, profile: IncreaseProfile): Money {
  return profile.percent !== null ? increaseByPercent(charge, profile.percent) : add(charge, profile.amount ?? (0n as Money))
}

/** Whether a profile changes anything (`No Increase` does not). */
export const raisesPrices = (p: IncreaseProfile): boolean => (p.percent ?? 0n) !== 0n || (p.amount ?? 0n) !== 0n

/**
 * The date yearly increase dates are counted from (contract 17.6): the `anchor` the job kept when
 * it last moved the reference date on, while the reference date is still one of the anchor's
 * yearly dates (else a person set a new date, and the count starts from it).
 */
export function countingFrom(reference: DateOnly, anchor: DateOnly | null): DateOnly {
  if (!anchor || anchor > reference) return reference
  for (let years = 0; ; years++) {
    const date = addMonths(anchor, 12 * years)
    if (date === reference) return anchor
    if (date > reference) return reference
  }
}

/**
 * The reference date and the yearly dates after it up to `today`, and the next one after today,
 * each counted from `anchor` (see `countingFrom`), so dates from a 29 February fall on 28 February
 * in common years and on 29 February in leap years, however often the job has run.
 */
export function increaseDates(reference: DateOnly, today: DateOnly, anchor: DateOnly | null = null): { due: DateOnly[]; next: DateOnly } {
  const from = countingFrom(reference, anchor)
  let years = 0
  while (addMonths(from, 12 * years) < reference) years++
  const due: DateOnly[] = []
  let date = addMonths(from, 12 * years)
  while (date <= today) {
    due.push(date)
    date = addMonths(from, 12 * ++years)
  }
  return { due, next: date }
}

/** Features looked at per query of the job. */
const PAGE = 500

/**
 * The daily annual increase job: every feature whose increase is due gets, for each yearly date
 * from its reference date to today (from its start date on and, once dropped, up to its bill-to
 * date), a `replace` change of its recurring charge from that date up to the first later version
 * with a price of its own (`applyIncrease`), and its own reference date moves to the first date
 * after today. Each feature is one transaction that re-reads its date under the customer's lock,
 * so a date is applied once however often, and on however many workers, the job runs. Returns the
 * features raised.
 */
export async function applyAnnualIncreases(ctx: PlatformContext, signal?: AbortSignal): Promise<number> {
  const today = ctx.clock.today()
  const profiles = Object.entries(ctx.presets.annualIncreaseProfiles)
    .filter(([, p]) => raisesPrices(p))
    .map(([name]) => name)
  let raised = 0
  for (let after: string | null = null; !signal?.aborted; ) {
    const ids = await ctx.store.terms.increasesDue(today, profiles, after, PAGE)
    for (const id of ids) if ((await raiseWithinRange(ctx, id, today)) && !signal?.aborted) raised++
    if (ids.length < PAGE) break
    after = ids[ids.length - 1]
  }
  return raised
}

/** Thrown out of a feature's transaction when its raised charge would be beyond the amounts the API accepts. */
class BeyondRange extends Error {}

/**
 * A feature whose increase would raise its charge beyond the amounts the API accepts (a GET → PATCH
 * of it would then fail on its own value) is left as it is, nothing of it written, and tried again
 * on the next run (its charge may have been lowered); it stops no other feature's increase.
 */
async function raiseWithinRange(ctx: PlatformContext, id: string, today: DateOnly): Promise<boolean> {
  try {
    return await raiseFeature(ctx, id, today)
  } catch (error) {
    if (error instanceof BeyondRange) return false
    throw error
  }
}

async function raiseFeature(ctx: PlatformContext, id: string, today: DateOnly): Promise<boolean> {
  return ctx.store.transaction(async (store) => {
    const peek = await store.repository('features').get(id)
    if (!peek?.customerID) return false
    const customer = await store.repository('customers').getForUpdate(peek.customerID)
    const before = await store.repository('features').getForUpdate(id)
    if (!before || !customer || before.serviceCharge === null || !before.startDate) return false
    const number = before.numberID ? await store.repository('numbers').get(before.numberID) : undefined
    const service = before.serviceID ? await store.repository('services').get(before.serviceID) : undefined
    const { date, profile: name } = effectiveIncrease([before, number ?? service ?? null, customer])
    const profile = name === null ? undefined : ctx.presets.annualIncreaseProfiles[name]
    if (!date || date > today || !profile || !raisesPrices(profile)) return false
    // The feature's own date keeps the anchor it was counted from; a date lent by a parent starts its own count.
    const anchor = countingFrom(date, before.annualIncreaseReferenceDate ? before.annualIncreaseAnchorDate : null)
    const { due, next } = increaseDates(date, today, anchor)
    const inner = { ...ctx, store }
    const features = store.repository('features')
    const resource = ctx.resources.get('features')!
    // One history entry per increase (each yearly date its own), the last one moving the reference date on.
    // A dropped feature is still billed through its bill-to date (contract 5.5), which a drop may set
    // later than today: the dates up to it raise what it is billed, those after it nothing.
    const billed = (from: DateOnly) => !before.isDropped || (before.billToDate != null && from <= before.billToDate)
    const applied = due.filter((from) => from >= before.startDate! && billed(from))
    let previous: Feature = before
    for (const [i, from] of applied.entries()) {
      const version = versionAt(effectiveHistory(historyOf(previous), before.startDate!), from)
      // A day the fixed fee tariff prices is left to tariff increases (contract 11), even on a
      // feature with a price of its own from a later date.
      const charge = version?.tariffPriced ? null : (version?.serviceCharge ?? null)
      if (charge !== null) {
        const serviceCharge = increasedCharge(charge, profile)
        if (!withinMoneyBound(serviceCharge)) throw new BeyondRange()
        const raise = { serviceCharge, featureCount: null, dateFrom: from, chargeChangeMode: 'replace', annualIncrease: true }
        await changeChargeLocked(inner, store, id, raise)
      }
      if (i === applied.length - 1) await features.update(id, { annualIncreaseReferenceDate: next, annualIncreaseAnchorDate: anchor, updatedStamp: ctx.clock.now() })
      const after = (await features.get(id))!
      await recordChanges(store, ctx.clock, [{ resource, action: 'annualIncrease', before: previous, after }])
      previous = after
    }
    // Once for the feature's yearly dates together (contract 10.6).
    if (applied.length > 0) await refreshAfterCharges(store, customer, ctx.clock.now(), ctx)
    // Every date before the feature started: only the reference date moves on.
    if (applied.length === 0) {
      const after = (await features.update(id, { annualIncreaseReferenceDate: next, annualIncreaseAnchorDate: anchor, updatedStamp: ctx.clock.now() }))!
      await recordChanges(store, ctx.clock, [{ resource, action: 'annualIncrease', before, after }])
    }
    return true
  })
}
