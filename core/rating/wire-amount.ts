import { BillingError } from '../errors.js'
import { parseMoney, type Money } from '../money/money.js'

/**
 * A tariff, number or customer `Number` field as stored: a plain JS number, or unset. Exact
 * Money (a `currency` field) is accepted as well, so a catalogue may type detail costs either way.
 */
export type WireNumber = number | Money | null | undefined

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i
const LIMIT = 10n ** 19n

/**
 * Converts a `Number` field (a rate in pounds, a percentage, a count of pence) to exact Money
 * at the boundary: through its shortest decimal text (`String(n)`), never through float
 * arithmetic. Values with more than 4 decimals are rounded half up to 4 places, as contract 9.1
 * does for rates. Null when unset; `field` names the field in the error for non-finite or
 * absurd values.
 */
export function amountOf(value: WireNumber, field: string): Money | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return value
  const exact = Number.isFinite(value) ? parseMoney(String(value)) : null
  if (exact !== null) return exact
  const m = Number.isFinite(value) ? DECIMAL.exec(String(value)) : null
  if (!m) throw new BillingError('invalid_field', `${field} is not a finite number`)
  const digits = BigInt(`${m[2]}${m[3] ?? ''}`)
  // value = digits × 10^(exp − decimals); in ten-thousandths: × 10^(exp − decimals + 4)
  const shift = Number(m[4] ?? 0) - (m[3]?.length ?? 0) + 4
  let units: bigint
  if (shift >= 0) {
    units = digits * 10n ** BigInt(shift)
  } else {
    const den = 10n ** BigInt(-shift)
    units = (digits * 2n + den) / (den * 2n)
  }
  if (units >= LIMIT) throw new BillingError('invalid_field', `${field} is too large`)
  return (m[1] ? -units : units) as Money
}

/**
 * A positive whole step or minimum (seconds, bytes, events) from a `Number` field, a fraction
 * taken up to the next whole; null when unset, zero or negative.
 */
export function stepOf(value: WireNumber): bigint | null {
  if (typeof value === 'bigint') return value > 0n ? (value + 9_999n) / 10_000n : null
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return null
  const whole = Math.ceil(value)
  return whole > 0 ? BigInt(whole) : null
}
