import { mulRatioRound, sub, times, type Money } from '../money/money.js'

/**
 * A feature sold for a total paid in instalments (contract 11): with `totalFeatureValue` and no
 * `serviceCharge`, period k (from 0) charges `total / count` rounded half up to whole pence, the
 * last one the remainder, and periods from `count` on charge nothing. The instalments add up to
 * the total exactly.
 */
export interface Instalments {
  readonly count: number
  readonly total: Money
}

/**
 * The instalment of period `k`, or null past the last one. Where rounding up would take more
 * than the total before the last period (pennies in many instalments), an instalment takes only
 * what is left, so none is ever negative.
 */
export function instalmentAt(plan: Instalments, k: number): Money | null {
  if (k < 0 || k >= plan.count) return null
  const each = mulRatioRound(plan.total, 1, plan.count, 2)
  const before = times(each, k)
  const left = before > plan.total ? (0n as Money) : sub(plan.total, before)
  return k < plan.count - 1 && each < left ? each : left
}

/** The plan of a feature's fields, or null when it is not sold in instalments. */
export function instalmentsOf(f: { readonly instalments: number | null; readonly totalFeatureValue: Money | null; readonly serviceCharge: Money | null }): Instalments | null {
  const count = f.instalments
  if (f.serviceCharge !== null || f.totalFeatureValue === null || count === null || !Number.isInteger(count) || count < 1) return null
  return { count, total: f.totalFeatureValue }
}
