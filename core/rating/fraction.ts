import type { Money } from '../money/money.js'

/**
 * An exact rational amount of ten-thousandths (`n / d`, `d > 0`). A call's cost stays a
 * fraction from the per-minute price to the final rounding, so no intermediate step rounds.
 */
export interface Fraction {
  readonly n: bigint
  readonly d: bigint
}

export const fraction = (n: bigint, d: bigint = 1n): Fraction => (d < 0n ? { n: -n, d: -d } : { n, d })

export const fromMoney = (m: Money): Fraction => ({ n: m, d: 1n })

export const addFractions = (a: Fraction, b: Fraction): Fraction =>
  a.d === b.d ? { n: a.n + b.n, d: a.d } : { n: a.n * b.d + b.n * a.d, d: a.d * b.d }

/** `m × num / den`, exactly. */
export const scale = (m: Money, num: bigint, den: bigint): Fraction => fraction(m * num, den)

export const compareFractions = (a: Fraction, b: Fraction): number => {
  const l = a.n * b.d
  const r = b.n * a.d
  return l < r ? -1 : l > r ? 1 : 0
}

export const maxFraction = (a: Fraction, b: Fraction): Fraction => (compareFractions(a, b) >= 0 ? a : b)
export const minFraction = (a: Fraction, b: Fraction): Fraction => (compareFractions(a, b) <= 0 ? a : b)

/** The smallest multiple of `step` (a positive fraction) that is ≥ `a`: rounding up, towards +∞. */
export function ceilToStep(a: Fraction, step: Fraction): Fraction {
  // k = ceil(a / step) = ceil((a.n × step.d) / (a.d × step.n))
  const k = ceilDiv(a.n * step.d, a.d * step.n)
  return fraction(k * step.n, step.d)
}

/** Half away from zero to a whole number of ten-thousandths (4 decimal places). */
export function roundToMoney(a: Fraction): Money {
  const an = a.n < 0n ? -a.n : a.n
  const q = (an * 2n + a.d) / (a.d * 2n)
  return (a.n < 0n ? -q : q) as Money
}

/** Nearest multiple of `step`, halves away from zero. */
export function roundToStep(a: Fraction, step: Fraction): Fraction {
  const num = a.n * step.d
  const den = a.d * step.n
  const an = num < 0n ? -num : num
  const q = (an * 2n + den) / (den * 2n)
  return fraction((num < 0n ? -q : q) * step.n, step.d)
}

/** ceil(a / b) for b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return q * b < a ? q + 1n : q
}
