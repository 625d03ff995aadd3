import { add, sub, ZERO, type Money } from '../money/money.js'

/** Net and VAT at one VAT rate (null: no rate, such as money paid in). */
export interface RatePart {
  readonly VATRate: string | null
  readonly net: Money
  readonly vat: Money
}

/** A penny in Money's units: write-off shares are whole pence (contract 17.6). */
const PENNY = 100n

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q
}

/**
 * Splits `target` in proportion to `weights` (their sum not zero), each part a whole `step` but
 * for what `target` itself has below a step, and the parts summing to `target` exactly. Largest
 * remainder: each part is its exact share rounded down to a step, and the steps left over go one
 * each to the parts with the largest remainders, the earlier part first on a tie (so the split is
 * the same every time it is made).
 */
export function apportion(target: bigint, weights: readonly bigint[], step: bigint = PENNY): bigint[] {
  const sign = weights.reduce((a, b) => a + b, 0n) < 0n ? -1n : 1n
  const ws = weights.map((w) => w * sign)
  const whole = ws.reduce((a, b) => a + b, 0n)
  if (whole === 0n) throw new RangeError('apportion: weights sum to zero')
  const parts = ws.map((w) => floorDiv(target * w, whole * step) * step)
  const remainders = ws.map((w, i) => target * w - parts[i] * whole)
  const order = ws.map((_, i) => i).sort((a, b) => (remainders[b] > remainders[a] ? 1 : remainders[b] < remainders[a] ? -1 : a - b))
  // Each part is below its exact share by less than a step, so fewer steps are left than parts.
  let left = target - parts.reduce((a, b) => a + b, 0n)
  for (let j = 0; left > 0n; j++) {
    const give = left < step ? left : step
    parts[order[j]] += give
    left -= give
  }
  return parts
}

/**
 * `part` (VAT included) of a document whose lines come to `lines` per rate, carrying `vat` (its
 * 17.6 share, already rounded half up for the document): that share split per rate. What each
 * rate carries of `part` is in proportion to its net + VAT on the document, and of `vat` in
 * proportion to its VAT (each by `apportion`: whole pence, largest remainder), so the rates'
 * VAT adds up to `vat` and their net to `part` − `vat`, exactly. A document with no lines, or
 * lines that come to nothing, gives it all at no rate.
 */
export function splitShare(part: Money, vat: Money, lines: readonly RatePart[]): RatePart[] {
  const rates = byRate(lines)
  const gross = rates.map((r) => add(r.net, r.vat) as bigint)
  const vats = rates.map((r) => r.vat as bigint)
  const sumOf = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n)
  if (rates.length === 0 || sumOf(gross) === 0n) return [{ VATRate: null, net: sub(part, vat), vat }]
  const grossParts = apportion(part, gross)
  // A document whose lines carry no VAT in all has none to split by: its VAT goes as its money does.
  const vatParts = sumOf(vats) === 0n ? apportion(vat, gross) : apportion(vat, vats)
  return rates.map((r, i) => ({ VATRate: r.VATRate, net: (grossParts[i] - vatParts[i]) as Money, vat: vatParts[i] as Money }))
}

/** Parts summed per rate, in the order each rate first comes. */
export function byRate(parts: Iterable<RatePart>): RatePart[] {
  const out = new Map<string | null, { net: Money; vat: Money }>()
  for (const p of parts) {
    const t = out.get(p.VATRate) ?? { net: ZERO, vat: ZERO }
    out.set(p.VATRate, { net: add(t.net, p.net), vat: add(t.vat, p.vat) })
  }
  return [...out].map(([VATRate, t]) => ({ VATRate, ...t }))
}
