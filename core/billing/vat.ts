import { mulRatio, parseMoney, times, type Money } from '../money/money.js'
import type { Presets } from '../presets/presets.js'

/** VAT on an amount at a configured rate name (0 when unset or unknown). */
export function vatOn(amount: Money, rate: string | null, presets: Pick<Presets, 'vatRatePercents'>): Money {
  const percent = rate ? presets.vatRatePercents[rate] : undefined
  return vatFor(amount, percent ?? '0')
}

/**
 * VAT on a net amount at a percentage given as decimal text ("20", "17.5"), rounded once, half
 * away from zero, to whole pence. Throws RangeError for a percentage that is not such a text
 * (a configuration error: `Presets.vatRatePercents` is validated when loaded).
 */
export function vatFor(amount: Money, percentText: string): Money {
  const percent = percentOf(percentText)
  if (percent === null || percent < 0n) throw new RangeError(`vatFor: bad percentage ${JSON.stringify(percentText)}`)
  // amount × (percent / 10_000) / 100, in units of pence: a further factor of 100 in the divisor.
  return times(mulRatio(amount, percent, 100_000_000n), 100)
}

// A run asks for the VAT of every row it writes at one of a few rates: each text is parsed once.
const percents = new Map<string, Money | null>()
function percentOf(text: string): Money | null {
  let percent = percents.get(text)
  if (percent === undefined) {
    percent = parseMoney(text)
    if (percents.size < 1000) percents.set(text, percent)
  }
  return percent
}
