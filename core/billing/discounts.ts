import { addDays, addMonths, type DateOnly } from '../dates/date-only.js'
import { mulRatio, mulRatioRound, neg, times, type Money } from '../money/money.js'
import type { DiscountScheme } from '../presets/product-maps.js'
import { proRate } from './pro-rate.js'

/**
 * A feature discount scheme in force over a span of period starts (contract 11): a recurring
 * charge whose billing period starts from `from` through `through` gets one `Recurring Charge
 * Discount` row beside it. Resolved from the presets' schemes once per feature, so the charge
 * math needs no presets.
 */
export interface FeatureDiscount {
  readonly from: DateOnly
  /** Inclusive; null: no end. */
  readonly through: DateOnly | null
  /** Percent of the charge in money units (10% → 100000n); null for an amount scheme. */
  readonly percent: Money | null
  /** Amount off each unit's price per period; null for a percentage scheme. */
  readonly amount: Money | null
}

/** The discount fields of a feature, as stored. */
export interface DiscountFields {
  readonly startDate: DateOnly | null
  readonly initialFeatureDiscountScheme: string | null
  readonly initialFeatureDiscountSchemeEndDate: DateOnly | null
  readonly ongoingFeatureDiscountScheme: string | null
  readonly ongoingFeatureDiscountSchemeEndDate: DateOnly | null
}

const NONE: readonly FeatureDiscount[] = []

/**
 * The feature's discounts, in the order they apply: the initial scheme from the start date
 * through its end date (else start + the scheme's months − 1 day; no end when neither), then the
 * ongoing scheme from the day after through its own end date (else its months from then). A
 * scheme that takes nothing off (`None`) still holds a span it has (its end date or months), so
 * the ongoing one waits for it; with neither it is no scheme at all, not a discount of nothing
 * for ever that would keep the ongoing one from ever starting.
 */
export function discountsOf(f: DiscountFields, schemes: Readonly<Record<string, DiscountScheme>>): readonly FeatureDiscount[] {
  const start = f.startDate
  if (!start || (f.initialFeatureDiscountScheme === null && f.ongoingFeatureDiscountScheme === null)) return NONE
  const out: FeatureDiscount[] = []
  let next: DateOnly | null = start
  for (const [name, endDate] of [
    [f.initialFeatureDiscountScheme, f.initialFeatureDiscountSchemeEndDate],
    [f.ongoingFeatureDiscountScheme, f.ongoingFeatureDiscountSchemeEndDate],
  ] as const) {
    const scheme = name === null ? undefined : schemes[name]
    if (!scheme || next === null) continue
    const from: DateOnly = next
    const through = endDate ?? (scheme.months !== null ? addDays(addMonths(from, scheme.months), -1) : null)
    if (through !== null && through < from) continue
    if (through === null && !takesSomething(scheme)) continue
    if (takesSomething(scheme)) out.push({ from, through, percent: scheme.percent, amount: scheme.amount })
    next = through === null ? null : addDays(through, 1)
  }
  return out
}

const takesSomething = (s: DiscountScheme): boolean => (s.percent ?? 0n) > 0n || (s.amount ?? 0n) > 0n

/** The discount in force for a period starting on `periodStart`, if any. */
export function discountOn(discounts: readonly FeatureDiscount[], periodStart: DateOnly): FeatureDiscount | null {
  for (const d of discounts) if (d.from <= periodStart && (d.through === null || periodStart <= d.through)) return d
  return null
}

/**
 * The discount row of a charge part: negative, never more than the charge. A percentage is taken
 * of the part's amount (exactly, rounded once to whole pence, half up); an amount comes off the
 * unit price (at most the price) and is pro-rated over the same days as the charge.
 */
export function discountAmounts(d: FeatureDiscount, rate: Money, quantity: number, amount: Money, covered: number, periodDays: number): { rate: Money; amount: Money } {
  if (d.percent !== null) {
    return { rate: neg(mulRatio(rate, d.percent, 1_000_000n)), amount: neg(mulRatioRound(amount, d.percent, 1_000_000n, 2)) }
  }
  const unit = (d.amount! < rate ? d.amount! : rate) as Money
  const off = proRate(times(unit, quantity), covered, periodDays)
  return { rate: neg(unit), amount: neg(off > amount ? amount : off) }
}
