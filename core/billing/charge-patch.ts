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
      featureCountCommitted: after.featureCountCommitted,
      ...(newInterval ? { serviceChargeInterval: after.interval } : {}),
      ...(after.serviceCharge === null ? { tariffPriced: true } : {}),
      dateFrom,
      chargeChangeMode: 'replace',
    },
  }
}
