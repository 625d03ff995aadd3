import type { BillingFeature } from '../../core/billing/billing-feature.js'
import type { DateOnly } from '../../core/dates/date-only.js'

/** A plain Monthly feature from 2025-01-01, with the given terms changed. */
export function billingFeature(over: Partial<BillingFeature> = {}): BillingFeature {
  return {
    startDate: '2025-01-01' as DateOnly,
    endDate: null,
    billToDate: null,
    gaps: [],
    interval: 'Monthly',
    connectionCharge: null,
    connectionChargeCarrier: null,
    serviceChargeCarrier: null,
    featureCountCommitted: null,
    committedTermDate: null,
    totalFeatureValue: null,
    serviceTransactionType: null,
    connectionTransactionType: null,
    isDropped: false,
    committedPeak: false,
    discounts: [],
    instalments: null,
    VATRate: null,
    ...over,
  }
}
