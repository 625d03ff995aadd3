import { mulRatio, round, times, type Money } from '../money/money.js'

/**
 * A transaction amount for `covered` days of a period of `periodDays` days: charge × covered /
 * periodDays, computed exactly and rounded once, half away from zero, to whole pence (contract
 * 9.1). Rounding once matters: 4-place rounding first and 2-place rounding after would turn an
 * exact 1.00495 into 1.0050 and then 1.01 instead of 1.00.
 */
export function proRate(charge: Money, covered: number, periodDays: number): Money {
  if (!Number.isInteger(covered) || !Number.isInteger(periodDays) || covered < 0 || periodDays <= 0 || covered > periodDays) {
    throw new RangeError(`proRate: ${covered} of ${periodDays} days`)
  }
  if (covered === periodDays) return round(charge, 2)
  // mulRatio to a denominator 100× larger rounds in units of 100 ten-thousandths, i.e. pence.
  return times(mulRatio(charge, covered, periodDays * 100), 100)
}
