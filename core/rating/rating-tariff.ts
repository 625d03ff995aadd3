import type { DateOnly } from '../dates/date-only.js'
import { baseTypes, type BaseType, type TimeBand } from '../presets/engine-lists.js'
import type { WireNumber } from './wire-amount.js'
import { pendingIncreaseOf } from '../tariffs/pending-increase.js'

/**
 * A call tariff and its rates as rating reads them, under their catalogue field names, so a
 * stored row can be passed as is. Every money field is in currency units (pounds): `cost` is per
 * minute (or per second, per MB, per event, per call by `baseType`), connection, minimum and
 * maximum are per call. Rounding steps are whole seconds / bytes / events; `baseRoundPence`
 * is in pence.
 */

/** The surcharge kinds (mirrors the tariff field catalogue: `baseSurcharge<kind>` etc.). */
export const rateSurchargeKinds = ['MobileOrigination', 'PayphoneOrigination', 'CallRecording'] as const
export type RateSurchargeKind = (typeof rateSurchargeKinds)[number]


/** Bytes in one MB for `Per MB` rates: 1 MB = 1024 KB = 1,048,576 bytes, as UK carriers bill data. */
export const BYTES_PER_MB = 1_048_576n


type DetailSurcharges = {
  readonly [K in RateSurchargeKind as `surcharge${K}` | `surcharge${K}Connection`]?: WireNumber
}

/** One rate of a call tariff (`tariffDetails`). An unset money field inherits the tariff's `base*` value. */
export interface TariffDetail extends DetailSurcharges {
  readonly id?: string
  readonly chargeBand: string | null
  readonly timeBand: TimeBand | string | null
  readonly startDate?: DateOnly | null
  readonly endDate?: DateOnly | null
  readonly cost?: WireNumber
  readonly costConnection?: WireNumber
  readonly costMin?: WireNumber
  readonly costMax?: WireNumber
}

type TariffSurcharges = {
  readonly [K in RateSurchargeKind as `baseSurcharge${K}` | `baseSurcharge${K}Connection`]?: WireNumber
} & {
  readonly [K in RateSurchargeKind as `baseSurchargeRounding${K}`]?: string | null
}

/** The fields of a call tariff rating reads, plus its details. */
export type RatingTariff = TariffSurcharges & {
  readonly id: string
  readonly name: string
  readonly baseType?: string | null
  /** The destination table a record without band or class is looked up in (contract 17.2). */
  readonly locationLookupCarrier?: string | null
  /** Single rate for all times when `single`, `single rate`, `yes`, `y`, `true` or `1`. */
  readonly singleRate?: string | null
  readonly baseCost?: WireNumber
  readonly baseCostConnection?: WireNumber
  readonly baseCostMin?: WireNumber
  readonly baseCostMax?: WireNumber
  readonly baseAccessCharge?: WireNumber
  readonly baseAccessChargeConnection?: WireNumber
  readonly baseRoundingAccessCharge?: string | null
  /** Two-part pricing (contract 17.7): this for the first `baseInitialDuration` seconds, then `baseCostSecondaryConnection` + the rate. */
  readonly baseInitialCost?: WireNumber
  readonly baseInitialDuration?: WireNumber
  readonly baseCostSecondaryConnection?: WireNumber
  /** The ID of the tariff this one is based upon: it lends what this one lacks (`withParents`). */
  readonly parentTariff?: string | null
  readonly baseDurationMin?: WireNumber
  readonly baseRoundSeconds?: WireNumber
  readonly baseRoundBytes?: WireNumber
  readonly baseRoundEvents?: WireNumber
  readonly baseRoundPence?: WireNumber
  readonly baseRoundPenceAfterSurcharge?: WireNumber
  readonly fallbackMarkup?: WireNumber
  readonly details: readonly TariffDetail[]
  /**
   * The ancestors' details, nearest first (`withParents`): each set is looked in only when no
   * nearer one has a row matching the call (`findRate`), so a child's own rates decide first.
   */
  readonly lent?: readonly (readonly TariffDetail[])[]
  /** The tariff with its own prices as an increase raises them from a later date (contract 17.5; see `tariffOn`). */
  readonly raised?: { readonly from: DateOnly; readonly tariff: RatingTariff }
}

/**
 * The tariff as it prices a call starting at `startTime` (a stamp): with its own prices raised
 * once a pending increase has taken effect on that date, else as stored. Its details carry their
 * own dates.
 */
export function tariffOn(tariff: RatingTariff, startTime: string): RatingTariff {
  const raised = tariff.raised
  return raised !== undefined && startTime.slice(0, 10) >= raised.from ? raised.tariff : tariff
}

/** A stored tariff with its pending increase (`pendingIncreaseOf`) read for `tariffOn`. */
export function withPendingIncrease(tariff: RatingTariff & { readonly pendingIncrease?: unknown }): RatingTariff {
  const pending = pendingIncreaseOf(tariff)
  if (!pending) return tariff
  return { ...tariff, raised: { from: pending.from, tariff: { ...tariff, ...(pending.values as Record<string, WireNumber>), raised: undefined } } }
}


/** The tariff's `baseType` when rating supports it (unset → `Per Minute`), else null. */
export function baseTypeOf(t: Pick<RatingTariff, 'baseType'>): BaseType | null {
  const v = (t.baseType ?? '').trim()
  if (v === '') return 'Per Minute'
  return (baseTypes as readonly string[]).includes(v) ? (v as BaseType) : null
}
