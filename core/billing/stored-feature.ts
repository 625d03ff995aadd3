import { minDate, type DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import { fromUnits, type Money } from '../money/money.js'
import type { BillingFeature } from './billing-feature.js'
import { initialHistory, type ChargeHistory, type ChargeVersion } from './charge-history.js'
import { parseInterval } from './periods.js'

/**
 * The billing view of a stored feature. A customer in final bill bills its features through
 * `dateFinalBill` at the latest (contract 5.5).
 */
export function toBillingFeature(feature: Item, customer: Item | null): BillingFeature {
  const own = (feature.billToDate as DateOnly | null) ?? null
  const finalBill = customer?.isFinalBill ? ((customer.finalBillDate as DateOnly | null) ?? null) : null
  return {
    startDate: (feature.startDate as DateOnly | null) ?? null,
    endDate: (feature.endDate as DateOnly | null) ?? null,
    billToDate: own && finalBill ? minDate(own, finalBill) : (own ?? finalBill),
    interval: parseInterval(feature.serviceChargeInterval) ?? 'Monthly',
    connectionCharge: (feature.connectionCharge as Money | null) ?? null,
    featureCountCommitted: (feature.featureCountCommitted as number | null) ?? null,
    committedTermDate: (feature.committedTermDate as DateOnly | null) ?? null,
    totalFeatureValue: (feature.totalFeatureValue as Money | null) ?? null,
    serviceTransactionType: (feature.serviceTransactionType as string | null) ?? null,
    connectionTransactionType: (feature.connectionTransactionType as string | null) ?? null,
    isDropped: feature.isDropped === true,
  }
}

type StoredVersion = Omit<ChargeVersion, 'serviceCharge'> & { serviceCharge: string | null }

/**
 * The feature's charge history. Until `changeRecurringCharge` records versions, the history is
 * the feature's own charge from its start date; the latest version always carries the feature's
 * current `serviceCharge` and `featureCount`, so a PATCH corrects the charge in force.
 */
export function historyOf(feature: Item): ChargeHistory {
  const serviceCharge = (feature.serviceCharge as Money | null) ?? null
  const featureCount = featureCountOf(feature)
  const start = (feature.startDate as DateOnly | null) ?? ('0001-01-01' as DateOnly)
  const stored = feature.chargeHistory as string | null
  if (!stored) return initialHistory(start, serviceCharge, featureCount)
  const versions = (JSON.parse(stored) as StoredVersion[]).map((v) => ({
    ...v,
    serviceCharge: v.serviceCharge === null ? null : fromUnits(v.serviceCharge),
  }))
  const last = versions.reduce((a, b) => (b.from >= a.from ? b : a))
  return versions.map((v) => (v === last ? { ...v, serviceCharge, featureCount } : v))
}

export function serializeHistory(history: ChargeHistory): string {
  return JSON.stringify(history.map((v) => ({ ...v, serviceCharge: v.serviceCharge === null ? null : v.serviceCharge.toString() })))
}

/** An unset count bills one instance. */
export const featureCountOf = (feature: Item): number => {
  const n = feature.featureCount
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 1
}
