import { minDate, type DateOnly } from '../dates/date-only.js'
import { fromUnits } from '../money/money.js'
import type { DiscountScheme } from '../presets/product-maps.js'
import type { BillingFeature } from './billing-feature.js'
import { discountsOf } from './discounts.js'
import { instalmentsOf } from './instalments.js'
import { initialHistory, type ChargeHistory, type ChargeVersion } from './charge-history.js'
import { parseDropGaps } from '../lifecycle/drop-gaps.js'
import type { RunCustomer, RunFeature } from '../ports/run-fields.js'
import { vatRateOf } from './ledger-writes.js'

/** Before any start date: the history of a feature without one starts here. */
const EARLIEST = '0001-01-01' as DateOnly

/**
 * The billing view of a stored feature. A customer in final bill bills its features through
 * `dateFinalBill` at the latest (contract 5.5). Discount schemes are resolved from the presets'
 * `schemes` (none without them: reads that only need dates). Without its customer the VAT rate
 * is the feature's own: enough for reads of dates and totals, never for a plan that writes.
 */
export function toBillingFeature(
  feature: RunFeature,
  customer: Pick<RunCustomer, 'isFinalBill' | 'finalBillDate' | 'VATRate'> | null,
  schemes: Readonly<Record<string, DiscountScheme>> = {},
): BillingFeature {
  const own = feature.billToDate
  const finalBill = customer?.isFinalBill ? customer.finalBillDate : null
  return {
    startDate: feature.startDate,
    endDate: feature.endDate,
    billToDate: own && finalBill ? minDate(own, finalBill) : (own ?? finalBill),
    gaps: parseDropGaps(feature.dropGaps),
    interval: feature.serviceChargeInterval ?? 'Monthly',
    connectionCharge: feature.connectionCharge,
    connectionChargeCarrier: feature.connectionChargeCarrier,
    serviceChargeCarrier: feature.serviceChargeCarrier,
    featureCountCommitted: committedCountOf(feature),
    committedTermDate: feature.committedTermDate,
    totalFeatureValue: feature.totalFeatureValue,
    serviceTransactionType: feature.serviceTransactionType,
    connectionTransactionType: feature.connectionTransactionType,
    isDropped: feature.isDropped === true,
    committedPeak: feature.featureCountCommittedAuto === 'Peak Count',
    discounts: discountsOf(feature, schemes),
    instalments: instalmentsOf(feature),
    VATRate: vatRateOf(feature, customer),
  }
}

type StoredVersion = Omit<ChargeVersion, 'serviceCharge'> & { serviceCharge: string | null }

/**
 * The feature's charge history. Until a charge change records versions (`changeRecurringCharge`,
 * a PATCH of a charge field: contract 17.5), the history is the feature's own charge from its
 * start date; the latest version always carries the feature's current `serviceCharge`,
 * `featureCount` and committed count, which every write of them records as a version first.
 */
export function historyOf(feature: Pick<RunFeature, 'serviceCharge' | 'featureCount' | 'featureCountCommitted' | 'startDate' | 'chargeHistory'>): ChargeHistory {
  const { serviceCharge, chargeHistory: stored } = feature
  const featureCount = featureCountOf(feature)
  const committed = committedCountOf(feature)
  const start = feature.startDate ?? EARLIEST
  if (!stored) return initialHistory(start, serviceCharge, featureCount, committed)
  const versions = (JSON.parse(stored) as StoredVersion[]).map((v) => ({
    ...v,
    serviceCharge: v.serviceCharge === null ? null : fromUnits(v.serviceCharge),
  }))
  const last = versions.reduce((a, b) => (b.from >= a.from ? b : a))
  return versions.map((v) => (v === last ? { ...v, serviceCharge, featureCount, committed } : v))
}

export function serializeHistory(history: ChargeHistory): string {
  return JSON.stringify(history.map((v) => ({ ...v, serviceCharge: v.serviceCharge === null ? null : v.serviceCharge.toString() })))
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0

/**
 * An unset count bills one instance. The field takes whole numbers from 0; a count stored before
 * it was checked that is not one bills as unset, never failing the run of every customer beside it.
 */
export const featureCountOf = (feature: Pick<RunFeature, 'featureCount'>): number => (isCount(feature.featureCount) ? feature.featureCount : 1)

/**
 * The committed count, null when unset. As with `featureCountOf`, one stored before the field
 * was checked that is not a whole number from 0 is unset: nothing was committed that a count can
 * bill, and the feature's own count is what it has.
 */
export const committedCountOf = (feature: Pick<RunFeature, 'featureCountCommitted'>): number | null =>
  isCount(feature.featureCountCommitted) ? feature.featureCountCommitted : null
