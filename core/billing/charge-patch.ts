import type { DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'
import type { BillingFeature } from './billing-feature.js'
import type { ChargeChangeParams } from './charge-change.js'
import type { ChargeHistory, ChargeVersion } from './charge-history.js'
import type { ServiceChargeInterval } from './periods.js'

/** A feature's charge fields after a PATCH (contract 17.5). */
export interface PatchedCharge {
  readonly serviceCharge: Money | null
  readonly featureCount: number
  readonly featureCountCommitted: number | null
  readonly interval: ServiceChargeInterval
}

/**
 * The `replace` change a PATCH of charge fields makes (contract 17.5), from `dateFrom` (the
 * `updatedDate` it sets) or, when null, from the feature's `dueDate`. `before` is the feature as
 * it was and its history. A new interval or committed count keeps the old one on the versions
 * before it that took the feature's own until then.
 */
export function chargePatch(before: { readonly feature: BillingFeature; readonly history: ChargeHistory }, after: PatchedCharge, dateFrom: DateOnly | null): { history: ChargeHistory; params: ChargeChangeParams } {
  const f = before.feature
  const newInterval = after.interval !== f.interval
  const newCommitted = after.featureCountCommitted !== f.featureCountCommitted
  const ownCommitted = f.committedPeak ? null : f.featureCountCommitted
  // Under `Peak Count` a committed count the rule set (the highest count yet) is left to the change,
  // which takes the peak in force on its date; one the PATCH set otherwise is taken as given.
  const ruled = f.committedPeak && after.featureCountCommitted === Math.max(f.featureCountCommitted ?? after.featureCount, after.featureCount)
  const pinned = (v: ChargeVersion): ChargeVersion => ({
    ...v,
    ...(newInterval && v.interval === undefined ? { interval: f.interval } : {}),
    ...(newCommitted && v.committed === undefined ? { committed: ownCommitted } : {}),
  })
  return {
    history: newInterval || newCommitted ? before.history.map(pinned) : before.history,
    params: {
      serviceCharge: after.serviceCharge,
      featureCount: after.featureCount,
      // Only a committed count the PATCH changed: the stored one is the latest, maybe scheduled later.
      ...(ruled || !newCommitted ? {} : { featureCountCommitted: after.featureCountCommitted }),
      ...(newInterval ? { serviceChargeInterval: after.interval } : {}),
      ...(after.serviceCharge === null ? { tariffPriced: true } : {}),
      dateFrom,
      chargeChangeMode: 'replace',
    },
  }
}
