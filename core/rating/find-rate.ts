import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import { ZERO, type Money } from '../money/money.js'
import { rateSurchargeKinds, type RateSurchargeKind, type RatingTariff, type TariffDetail } from './rating-tariff.js'
import { isSingleRate } from '../tariffs/single-rate.js'
import { dateOfStamp, timeBandOf, timeBands, type TimeBand } from './time-band.js'
import { amountOf, type WireNumber } from './wire-amount.js'

/** A surcharge of a rate: per unit (as `cost`) plus a per-call connection component. */
export interface SurchargeRate {
  readonly perUnit: Money
  readonly connection: Money
}

/** The rate a call is charged at, every amount exact and resolved against the tariff's `base*` values. */
export interface Rate {
  /** `detail` when a tariff detail row matched, `base` when the tariff's `baseCost` applies. */
  readonly source: 'detail' | 'base'
  readonly detailID: string | null
  readonly cost: Money
  readonly costConnection: Money
  readonly costMin: Money | null
  readonly costMax: Money | null
  readonly surcharges: Readonly<Record<RateSurchargeKind, SurchargeRate>>
}

export interface FoundRate {
  readonly rate: Rate
  /** The call's band; `any` on a single-rate tariff. */
  readonly timeBand: TimeBand
}

const bandKey = (s: string | null): string => (s ?? '').trim().toLowerCase()

/** A detail row with its time band read once: the key, or null when it names no band. */
interface BandedDetail {
  readonly detail: TariffDetail
  readonly timeBand: string | null
}

/** A tariff's details grouped by charge band, and the groups by the calls' own spelling. */
interface DetailGroups {
  readonly byKey: Map<string, BandedDetail[]>
  readonly bySpelling: Map<string, readonly BandedDetail[]>
}

const NONE: readonly BandedDetail[] = []
const MAX_SPELLINGS = 10_000
const groupsCache = new WeakMap<readonly TariffDetail[], DetailGroups>()

/**
 * The tariff's details for a call's charge band, grouped once per details array: an import
 * asks for every record, and trimming, lower-casing and checking every row's bands each time
 * was most of the lookup.
 */
function detailsForBand(details: readonly TariffDetail[], chargeBand: string): readonly BandedDetail[] {
  let groups = groupsCache.get(details)
  if (!groups) {
    groups = { byKey: new Map(), bySpelling: new Map() }
    for (const d of details) {
      const key = bandKey(d.chargeBand)
      const band = bandKey(d.timeBand)
      const entry = { detail: d, timeBand: (timeBands as readonly string[]).includes(band) ? band : null }
      const at = groups.byKey.get(key)
      if (at) at.push(entry)
      else groups.byKey.set(key, [entry])
    }
    groupsCache.set(details, groups)
  }
  let found = groups.bySpelling.get(chargeBand)
  if (!found) {
    found = groups.byKey.get(bandKey(chargeBand)) ?? NONE
    if (groups.bySpelling.size >= MAX_SPELLINGS) groups.bySpelling.clear()
    groups.bySpelling.set(chargeBand, found)
  }
  return found
}

/**
 * The rate for a call of `chargeBand` starting at `startTime`, or null when the tariff has none
 * (then the markup fallbacks apply).
 *
 * A detail row matches when its `chargeBand` equals the call's (trimmed, ignoring case), the
 * call's UTC date is within `startDate..endDate` (either end open when unset), and its
 * `timeBand` is the call's band (`timeBandOf`) or `any`. An exact band beats `any`; then the
 * latest `startDate`; then the first row given. On a single-rate tariff every time band
 * matches, `any` first. The tariff's own rows decide first; only when none matches do its
 * ancestors' (`lent`, nearest first), each by the same rule (contract 17.7). With no matching
 * row, the tariff's `baseCost` (when set) is the rate. A row's unset money fields inherit the
 * tariff's `base*` ones (cost and connection default to 0).
 */
export function findRate(tariff: RatingTariff, call: { readonly chargeBand: string; readonly startTime: Stamp }): FoundRate | null {
  const single = isSingleRate(tariff)
  const band: TimeBand = single ? 'any' : timeBandOf(call.startTime)
  let best = bestDetail(tariff.details, call, band, single)
  if (!best && tariff.lent) {
    for (const details of tariff.lent) if ((best = bestDetail(details, call, band, single))) break
  }
  if (best) return foundRate(resolve(tariff, best), band)
  if (tariff.baseCost === null || tariff.baseCost === undefined) return null
  return foundRate(resolve(tariff, null), band)
}

/** The row of `details` that prices the call (see `findRate`), or null when none matches. */
function bestDetail(details: readonly TariffDetail[], call: { readonly chargeBand: string; readonly startTime: Stamp }, band: TimeBand, single: boolean): TariffDetail | null {
  // The date only when a detail has dates: most have none, and slicing it out was a string a call.
  let date: DateOnly | null = null
  let best: TariffDetail | null = null
  let bestScore = -1
  for (const { detail: d, timeBand } of detailsForBand(details, call.chargeBand)) {
    const score = bandScore(timeBand, band, single)
    if (score < 0) continue
    if ((d.startDate || d.endDate) && !inDates(d, (date ??= dateOfStamp(call.startTime)))) continue
    if (score > bestScore || (score === bestScore && laterStart(d, best))) {
      best = d
      bestScore = score
    }
  }
  return best
}

/** A rate in a band, made once rather than once a call (results are read, never changed). */
const found = new WeakMap<Rate, Map<TimeBand, FoundRate>>()

function foundRate(rate: Rate, timeBand: TimeBand): FoundRate {
  let byBand = found.get(rate)
  if (!byBand) found.set(rate, (byBand = new Map()))
  let f = byBand.get(timeBand)
  if (!f) byBand.set(timeBand, (f = { rate, timeBand }))
  return f
}

/** 2 exact band, 1 `any`, 0 another band of a single-rate tariff, −1 no match (`b`: the row's band key, null when it is none). */
function bandScore(b: string | null, callBand: TimeBand, single: boolean): number {
  if (b === null) return -1
  if (b === 'any') return single ? 2 : 1
  if (b === callBand) return 2
  return single ? 0 : -1
}

const inDates = (d: TariffDetail, date: DateOnly): boolean =>
  (!d.startDate || d.startDate <= date) && (!d.endDate || date <= d.endDate)

const laterStart = (d: TariffDetail, than: TariffDetail | null): boolean =>
  (d.startDate ?? '') > (than?.startDate ?? '')

const rates = new WeakMap<RatingTariff, Map<TariffDetail | null, Rate>>()

/**
 * The rate of a detail row (or of the tariff's base values), resolved once per tariff and row:
 * reading a dozen amounts from their decimal text for every record cost more than pricing it.
 */
function resolve(t: RatingTariff, d: TariffDetail | null): Rate {
  let byDetail = rates.get(t)
  if (!byDetail) rates.set(t, (byDetail = new Map()))
  let rate = byDetail.get(d)
  if (!rate) byDetail.set(d, (rate = resolveRate(t, d)))
  return rate
}

function resolveRate(t: RatingTariff, d: TariffDetail | null): Rate {
  const pick = (own: WireNumber, base: WireNumber, field: string): Money | null =>
    amountOf(own ?? null, field) ?? amountOf(base, field)
  const surcharges = {} as Record<RateSurchargeKind, SurchargeRate>
  for (const k of rateSurchargeKinds) {
    surcharges[k] = {
      perUnit: pick(d?.[`surcharge${k}`], t[`baseSurcharge${k}`], `surcharge${k}`) ?? ZERO,
      connection: pick(d?.[`surcharge${k}Connection`], t[`baseSurcharge${k}Connection`], `surcharge${k}Connection`) ?? ZERO,
    }
  }
  return {
    source: d ? 'detail' : 'base',
    detailID: d?.id ?? null,
    cost: pick(d?.cost, t.baseCost, 'cost') ?? ZERO,
    costConnection: pick(d?.costConnection, t.baseCostConnection, 'costConnection') ?? ZERO,
    costMin: pick(d?.costMin, t.baseCostMin, 'costMin'),
    costMax: pick(d?.costMax, t.baseCostMax, 'costMax'),
    surcharges,
  }
}
