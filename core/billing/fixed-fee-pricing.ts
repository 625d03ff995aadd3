import { addDays, type DateOnly } from '../dates/date-only.js'
import type { Customer, Feature, FixedFeeTariffDetail } from '../fields/entity.js'
import type { ChargeVersion } from './charge-history.js'

/** What a fixed fee tariff row is matched against: the feature and what it hangs on. */
export interface FeatureTypes {
  readonly featureType: string | null
  readonly numberType: string | null
  readonly serviceType: string | null
  readonly transactionType: string | null
}

/**
 * A fixed fee tariff's price rows: its own, then each ancestor's (contract 17.7), nearest first,
 * a list a tariff (tariffs with no rows left out). Kept apart since the first list with a row
 * that matches decides (`priceOn`).
 */
export type TariffRows = readonly (readonly FixedFeeTariffDetail[])[]

/** Fixed fee tariffs' price rows, by tariff name. */
export type FixedFeeTariffs = ReadonlyMap<string, TariffRows>

const lists = [
  ['featureTypes', 'featureType'],
  ['numberTypes', 'numberType'],
  ['serviceTypes', 'serviceType'],
  ['transactionTypes', 'transactionType'],
] as const

/**
 * How specifically a row matches, or -1 when it does not: each non-empty list must contain the
 * feature's value and counts one (an empty list matches anything and counts nothing).
 */
export function specificity(row: FixedFeeTariffDetail, types: FeatureTypes): number {
  let score = 0
  for (const [list, key] of lists) {
    const allowed = row[list] ?? []
    if (allowed.length === 0) continue
    const value = types[key]
    if (!value || !allowed.includes(value)) return -1
    score++
  }
  return score
}

const inForce = (row: FixedFeeTariffDetail, date: DateOnly) => (!row.startDate || row.startDate <= date) && (!row.endDate || row.endDate >= date)

/**
 * The row that prices the feature on `date`: of the first list (the tariff's own rows, else its
 * nearest ancestor's with one) that has a row matching it in force then, the most specific (ties:
 * the later start, then the lower ID). A child's own row thus beats any its parents lend, however
 * specific theirs; a parent's lends only where and when none of the child's matches.
 */
export function priceOn(rows: TariffRows, types: FeatureTypes, date: DateOnly): FixedFeeTariffDetail | null {
  for (const list of rows) {
    const best = bestOf(list, types, date)
    if (best) return best
  }
  return null
}

/** The most specific row of one tariff's `rows` in force on `date` (see `priceOn`), or null. */
function bestOf(rows: readonly FixedFeeTariffDetail[], types: FeatureTypes, date: DateOnly): FixedFeeTariffDetail | null {
  let best: FixedFeeTariffDetail | null = null
  let bestScore = -1
  for (const row of rows) {
    if (!inForce(row, date)) continue
    const score = specificity(row, types)
    if (score < 0) continue
    const later = best && (row.startDate ?? '') > (best.startDate ?? '')
    if (score > bestScore || (score === bestScore && later)) {
      best = row
      bestScore = score
    }
  }
  return best
}

/**
 * A charge history from tariff prices: a version wherever the winning row can change (a row
 * starts or ends), each with that row's service charge.
 */
export function fixedFeeHistory(rows: TariffRows, types: FeatureTypes, start: DateOnly, featureCount: number, committed: number | null): ChargeVersion[] {
  const boundaries = new Set<DateOnly>([start])
  for (const r of rows.flat()) {
    if (r.startDate && r.startDate > start) boundaries.add(r.startDate)
    if (r.endDate && r.endDate >= start) boundaries.add(addDays(r.endDate, 1))
  }
  const versions: ChargeVersion[] = []
  for (const from of [...boundaries].sort()) {
    const serviceCharge = priceOn(rows, types, from)?.serviceCharge ?? null
    if (versions.length && versions.at(-1)!.serviceCharge === serviceCharge) continue
    versions.push({ from, serviceCharge, featureCount, committed, tariffPriced: true, series: 0, mode: 'replace' })
  }
  return versions
}

/**
 * A stored history whose versions the tariff prices (`tariffPriced`) with the tariff's price of
 * each day: a version wherever a stored version starts or the winning row can change, so a count
 * changed by a PATCH keeps following the tariff's prices, and its increases.
 */
export function withTariffPrices(history: readonly ChargeVersion[], rows: TariffRows, types: FeatureTypes, start: DateOnly): ChargeVersion[] {
  if (!history.some((v) => v.tariffPriced)) return [...history]
  const sorted = [...history].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const boundaries = new Set<DateOnly>(sorted.map((v) => v.from))
  for (const v of fixedFeeHistory(rows, types, start, 1, null)) boundaries.add(v.from)
  const out: ChargeVersion[] = []
  for (const from of [...boundaries].sort()) {
    let version = sorted[0]
    for (const v of sorted) if (v.from <= from) version = v
    out.push(version.tariffPriced ? { ...version, from, serviceCharge: priceOn(rows, types, from)?.serviceCharge ?? null } : { ...version, from })
  }
  return out
}

/** The fixed fee tariff that applies: the feature's, else its service's or number's, else its customer's. */
export function applicableTariff(feature: HasTariff<Feature>, parent: HasTariff<Feature> | null, customer: HasTariff<Customer> | null): string | null {
  return (feature.fixedFeeTariff ?? parent?.fixedFeeTariff ?? customer?.fixedFeeTariff ?? null) || null
}

/** Anything that may name a fixed fee tariff (features, numbers, services, customers). */
type HasTariff<E extends { readonly fixedFeeTariff: string | null }> = Pick<E, 'fixedFeeTariff'>
