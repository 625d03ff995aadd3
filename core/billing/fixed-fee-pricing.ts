import { addDays, type DateOnly } from '../dates/date-only.js'
import type { Item } from '../fields/item.js'
import type { Money } from '../money/money.js'
import type { ChargeVersion } from './charge-history.js'

/** What a fixed fee tariff row is matched against: the feature and what it hangs on. */
export interface FeatureTypes {
  readonly featureType: string | null
  readonly numberType: string | null
  readonly serviceType: string | null
  readonly transactionType: string | null
}

/** A fixed fee tariff's price rows, by tariff name. */
export type FixedFeeTariffs = ReadonlyMap<string, readonly Item[]>

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
export function specificity(row: Item, types: FeatureTypes): number {
  let score = 0
  for (const [list, key] of lists) {
    const allowed = (row[list] as readonly string[] | null) ?? []
    if (allowed.length === 0) continue
    if (!types[key] || !allowed.includes(types[key]!)) return -1
    score++
  }
  return score
}

const inForce = (row: Item, date: DateOnly) =>
  (!row.startDate || (row.startDate as string) <= date) && (!row.endDate || (row.endDate as string) >= date)

/** The most specific row in force on `date` (ties: the later start, then the lower ID). */
export function priceOn(rows: readonly Item[], types: FeatureTypes, date: DateOnly): Item | null {
  let best: Item | null = null
  let bestScore = -1
  for (const row of rows) {
    if (!inForce(row, date)) continue
    const score = specificity(row, types)
    if (score < 0) continue
    const later = best && ((row.startDate as string) ?? '') > ((best.startDate as string) ?? '')
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
export function fixedFeeHistory(rows: readonly Item[], types: FeatureTypes, start: DateOnly, featureCount: number): ChargeVersion[] {
  const boundaries = new Set<DateOnly>([start])
  for (const r of rows) {
    if (r.startDate && (r.startDate as DateOnly) > start) boundaries.add(r.startDate as DateOnly)
    if (r.endDate && (r.endDate as DateOnly) >= start) boundaries.add(addDays(r.endDate as DateOnly, 1))
  }
  const versions: ChargeVersion[] = []
  for (const from of [...boundaries].sort()) {
    const serviceCharge = (priceOn(rows, types, from)?.serviceCharge as Money | null | undefined) ?? null
    if (versions.length && versions.at(-1)!.serviceCharge === serviceCharge) continue
    versions.push({ from, serviceCharge, featureCount, series: 0, mode: 'replace' })
  }
  return versions
}

/** The fixed fee tariff that applies: the feature's, else its service's or number's, else its customer's. */
export function applicableTariff(feature: Item, parent: Item | null, customer: Item | null): string | null {
  return ((feature.fixedFeeTariff ?? parent?.fixedFeeTariff ?? customer?.fixedFeeTariff ?? null) as string | null) || null
}
