import { minDate, type DateOnly } from '../dates/date-only.js'
import type { DropGap } from '../lifecycle/drop-gaps.js'
import type { Money } from '../money/money.js'
import type { FeatureDiscount } from './discounts.js'
import type { Instalments } from './instalments.js'
import type { ServiceChargeInterval } from './periods.js'

/**
 * What the billing math needs of a feature. The charge itself (`serviceCharge`, `featureCount`)
 * is not here: it lives in the feature's charge history (see `charge-history.ts`), because it
 * changes over time.
 */
export interface BillingFeature {
  /** First day billed; a feature without one is never charged. */
  readonly startDate: DateOnly | null
  /** Last day active, inclusive; null for ongoing. */
  readonly endDate: DateOnly | null
  /** Last day billed once dropped (contract 5.5); null while not dropped. */
  readonly billToDate: DateOnly | null
  /** Stretches left uncharged between a drop and its reinstate, oldest first; the periods start again after each (`DropGap`). */
  readonly gaps: readonly DropGap[]
  readonly interval: ServiceChargeInterval
  readonly connectionCharge: Money | null
  /** What the carrier charges the reseller once (contract 16.2): the connection row's `carrierCost`, × its count. */
  readonly connectionChargeCarrier: Money | null
  /** What the carrier charges per period: each recurring row's `carrierCost`, × its count and pro-rated as the charge. */
  readonly serviceChargeCarrier: Money | null
  readonly featureCountCommitted: number | null
  readonly committedTermDate: DateOnly | null
  readonly totalFeatureValue: Money | null
  /** Transaction type of recurring charge rows; default `Recurring Charge`. */
  readonly serviceTransactionType: string | null
  /** Transaction type of the connection charge row; default `Connection Charge`. */
  readonly connectionTransactionType: string | null
  readonly isDropped: boolean
  /** `Peak Count`: the committed count of a period is at least the highest count in force by its start (contract 11, 17.6). */
  readonly committedPeak: boolean
  /** Discount schemes in force, in order (see `discountsOf`); empty for most features. */
  readonly discounts: readonly FeatureDiscount[]
  /** Sold for a total in instalments (see `instalmentsOf`), or null. */
  readonly instalments: Instalments | null
  /**
   * The VAT rate name its charges take now: its own, else its customer's; null, no VAT. A charge
   * not yet invoiced that was written at another rate is moved to it (reconcile.ts).
   */
  readonly VATRate: string | null
}

/** The last day the feature is charged for: the earlier of its end date and its bill-to date. */
export function featureEnd(f: BillingFeature): DateOnly | null {
  if (f.endDate && f.billToDate) return minDate(f.endDate, f.billToDate)
  return f.endDate ?? f.billToDate
}

/**
 * The count a recurring charge is billed for, in a period starting on `date`: the feature count,
 * or the committed count when larger and `date` is on or before the committed term date (always,
 * when there is none). `committed` is the one in force by `date` (see `committedAt` in
 * expected-charges.ts), so a change of it never re-prices periods before the change.
 */
export function billedCount(f: BillingFeature, featureCount: number, date: DateOnly, committed: number | null = f.featureCountCommitted): number {
  if (committed === null || committed <= featureCount) return featureCount
  if (f.committedTermDate !== null && date > f.committedTermDate) return featureCount
  return committed
}
