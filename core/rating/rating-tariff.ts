import type { DateOnly } from '../dates/date-only.js'
import { baseTypes, type BaseType, type TimeBand } from '../presets/engine-lists.js'
import type { WireNumber } from './wire-amount.js'
import { earlierPricesOf, pendingIncreaseOf } from '../tariffs/pending-increase.js'

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
  /**
   * The tariff with its own prices as increases change them from later dates, by date ascending
   * (contract 17.5; see `tariffOn`): the tariff itself prices calls before the first.
   */
  readonly raised?: readonly { readonly from: DateOnly; readonly tariff: RatingTariff }[]
}

/**
 * The tariff as it prices a call starting at `startTime` (a stamp or a date): with its own
 * prices as the latest increase taken effect by that date left them. Its details carry their
 * own dates.
 */
export function tariffOn(tariff: RatingTariff, startTime: string): RatingTariff {
  const day = startTime.slice(0, 10)
  let found = tariff
  for (const r of tariff.raised ?? []) if (day >= r.from) found = r.tariff
  return found
}

/**
 * A stored tariff with its increases read for `tariffOn`: its earlier prices (the ones applied
 * increases replaced, `earlierPricesOf`) price calls before each increase's date, its stored
 * prices calls from the last applied one, and its pending increase (`pendingIncreaseOf`) calls from its date.
 */
export function withPendingIncrease(tariff: RatingTariff & { readonly pendingIncrease?: unknown }): RatingTariff {
  const pending = pendingIncreaseOf(tariff)
  const earlier = earlierPricesOf(tariff)
  if (!pending && earlier.length === 0) return tariff
  const stored: RatingTariff = { ...tariff, raised: undefined }
  const raised = pending ? [{ from: pending.from, tariff: { ...stored, ...(pending.values as Record<string, WireNumber>) } }] : []
  // Back from the stored prices: before each applied increase's date, the prices it replaced.
  let before = stored
  for (const e of [...earlier].reverse()) {
    raised.unshift({ from: e.until, tariff: before })
    before = { ...before, ...(e.values as Record<string, WireNumber>) }
  }
  return { ...before, raised }
}

/** The tariff's `baseType` when rating supports it (unset → `Per Minute`), else null. */
export function baseTypeOf(t: Pick<RatingTariff, 'baseType'>): BaseType | null {
  const v = (t.baseType ?? '').trim()
  if (v === '') return 'Per Minute'
  return (baseTypes as readonly string[]).includes(v) ? (v as BaseType) : null
}
