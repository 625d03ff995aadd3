import { BillingError } from '../errors.js'
import type { FieldValue, Item, Values } from '../fields/item.js'
import { MAX_NUMBER } from '../input/validate.js'
import { formatMoney, fromUnits, increaseByPercent, LARGEST_AMOUNT, moneyToNumber, mulRatio, withinMoneyBound, type Money } from '../money/money.js'

/** The decimal text JavaScript gives a finite number: `0.0333`, `1.25e-7`, `1e+21`. */
const NUMBER_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/

/**
 * One price raised by `percent` (ten-thousandths of a percent, so 3.5% is 35000n), rounded half
 * away from zero to 4 decimal places (contract 9.1). Exact money (a detail's currency field)
 * goes straight through `increaseByPercent`; a tariff's `Number` field is read exactly from its
 * shortest decimal text, never through float arithmetic, and comes back as a JS number. Unset
 * stays unset.
 */
export function increasePrice(value: FieldValue, percent: Money): FieldValue {
  if (value === null) return null
  if (typeof value === 'bigint') return increaseByPercent(value as Money, percent)
  if (typeof value === 'number') return increaseNumber(value, percent)
  throw new TypeError(`increasePrice: ${typeof value} is not a price`)
}

/**
 * A `Number` price raised by `percent`. A value with up to 4 decimals is exact Money; one with
 * more (a per-second rate such as 0.00125) is raised at its own precision and rounded once,
 * so 0.00125 + 5% = 0.0013125 → 0.0013 (rounding first would give 0.0014).
 */
export function increaseNumber(value: number, percent: Money): number {
  if (!Number.isFinite(value)) return value
  const m = NUMBER_TEXT.exec(String(value))
  if (!m) throw new RangeError(`increaseNumber: unexpected number text ${String(value)}`)
  const fraction = m[3] ?? ''
  const places = fraction.length - Number(m[4] ?? 0)
  const digits = BigInt(`${m[1] ?? ''}${m[2]}${fraction}`)
  if (places <= 4) return moneyToNumber(increaseByPercent(fromUnits(digits * 10n ** BigInt(4 - places)), percent))
  // value = digits / 10^places: in ten-thousandths, digits / 10^(places − 4), raised by (100 + p)%.
  return moneyToNumber(mulRatio(fromUnits(digits), 1_000_000n + percent, 1_000_000n * 10n ** BigInt(places - 4)))
}

/** The raised values of `fields` in one row (a tariff or a detail); unset fields are left out. */
export function increaseRow(row: Item, fields: readonly string[], percent: Money): Values {
  const out: Values = {}
  for (const name of fields) {
    const value = row[name]
    if (value !== null && value !== undefined) out[name] = increasePrice(value, percent)
  }
  return out
}

/** Whether a raised price is one the API accepts back: money within its range, a Number under 1e15 either side of zero. */
export function withinPriceBound(value: FieldValue): boolean {
  if (typeof value === 'bigint') return withinMoneyBound(value as Money)
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) < MAX_NUMBER
  return true
}

/**
 * Refuses an increase that would raise a price of `row` (a tariff or one of its rates, `what`
 * naming it) beyond what the API accepts: stored, GET → PATCH of the row would fail on its own
 * value. The caller checks every row before it writes any, so the increase is all or nothing.
 */
export function assertRaisable(what: string, row: Item, raised: Values): void {
  for (const [name, value] of Object.entries(raised)) {
    if (withinPriceBound(value)) continue
    const shown = typeof value === 'bigint' ? formatMoney(value as Money) : String(value)
    const range = typeof value === 'bigint' ? `-${LARGEST_AMOUNT} to ${LARGEST_AMOUNT}` : `above -${MAX_NUMBER} and below ${MAX_NUMBER}`
    throw new BillingError(
      'invalid_parameter',
      `Invalid value for parameter "increasePercent": it would raise ${name} of ${what} ${row.id} to ${shown}, outside the prices accepted (${range})`,
      `Give a smaller increasePercent, or lower that price first.`,
    )
  }
}
