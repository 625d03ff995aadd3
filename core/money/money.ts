/**
 * Exact money: an amount is a bigint count of ten-thousandths (4 decimal places).
 * Binary floating point never touches an amount; JSON numbers are read through their
 * shortest decimal text, which is exact for the 4-place values we accept.
 */
export type Money = bigint & { readonly __money: unique symbol }

export const MONEY_SCALE = 4
const FACTOR = 10_000n
const DECIMAL = /^(-)?(\d{1,15})(?:\.(\d{1,4}))?$/

export const ZERO = 0n as Money

/**
 * Amounts the platform accepts lie strictly between −MAX_MONEY and MAX_MONEY: 10^15
 * ten-thousandths, 10^11 in currency units. Within it an amount is an exact double as a JSON
 * number, and thousands of them add up within the 64-bit integer columns that store money
 * (about 9.2 × 10^18). The API's currency fields, usage files' and carrier bills' costs are
 * held to it; beyond it a value is refused rather than stored imprecisely or not at all.
 */
export const MAX_MONEY = (10n ** 15n) as Money

/** Whether an amount is within `MAX_MONEY` either side of zero. */
export const withinMoneyBound = (m: Money): boolean => m < MAX_MONEY && m > -MAX_MONEY


/** Wraps a raw count of ten-thousandths (as stored in the database). */
export function fromUnits(units: bigint | number | string): Money {
  return BigInt(units) as Money
}

/** Parses a JSON number or decimal string with at most 4 decimals; null when it is not one. */
export function parseMoney(input: unknown): Money | null {
  let text: string
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null
    text = numberToPlainString(input)
  } else if (typeof input === 'string') {
    text = input.trim()
  } else {
    return null
  }
  const m = DECIMAL.exec(text)
  if (!m) return null
  const units = BigInt(m[2]) * FACTOR + BigInt((m[3] ?? '').padEnd(4, '0') || '0')
  return (m[1] ? -units : units) as Money
}

function numberToPlainString(n: number): string {
  const s = String(n)
  if (!/e/i.test(s)) return s
  // Exponent forms only arise for tiny or huge values; tiny ones with more than
  // 4 decimals must be refused, so expand them exactly and let the pattern decide.
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '')
}

/** Decimal text with exactly 4 places, e.g. "-12.5000". */
export function formatMoney(m: Money): string {
  const neg = m < 0n
  const abs = neg ? -m : m
  const whole = abs / FACTOR
  const frac = (abs % FACTOR).toString().padStart(4, '0')
  return `${neg ? '-' : ''}${whole}.${frac}`
}

/**
 * Decimal text with at least `places` decimals (default 2, as the API's money reads: "12.50"),
 * never rounded: a fourth decimal place that is not zero is shown ("0.1234"). Messages print
 * amounts so; the library's `formatMoney` is this.
 */
export function formatAmount(m: Money, places: 0 | 1 | 2 | 3 | 4 = 2): string {
  const text = formatMoney(m)
  const point = text.indexOf('.')
  const shown = text.slice(point + 1).replace(/0+$/, '').padEnd(places, '0')
  return shown ? `${text.slice(0, point)}.${shown}` : text.slice(0, point)
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The JSON number for an amount: the double nearest to its decimal value, as `Number` of its
 * text gives. Below 2^53 ten-thousandths both `m` and 10,000 are exact doubles, and one
 * division is correctly rounded, so it is that same double without the text (a billing run
 * writes five amounts for each of its 200,000 invoices' events).
 */
export function moneyToNumber(m: Money): number {
  return m <= SAFE && m >= -SAFE ? Number(m) / 10_000 : Number(formatMoney(m))
}

/** 10^15 ten-thousandths: below it an amount has at most 15 significant digits. */
const FIFTEEN_DIGITS = 10n ** 15n
const FRACTION_TEXT = Array.from({ length: 10_000 }, (_, f) => (f === 0 ? '' : `.${String(f).padStart(4, '0').replace(/0+$/, '')}`))

/**
 * `String(moneyToNumber(m))`, the text of an amount's JSON number, written from its digits:
 * below 10^15 ten-thousandths the decimal has at most 15 significant digits, so the shortest
 * text of the nearest double is that decimal itself, trailing zeros dropped. A margin by
 * customer writes four amounts on each of 200,000 lines, where printing doubles cost twice
 * as much (bench/RESULTS.md, session 33).
 */
export function moneyToNumberText(m: Money): string {
  if (m >= FIFTEEN_DIGITS || m <= -FIFTEEN_DIGITS) return String(moneyToNumber(m))
  const n = Number(m)
  const abs = n < 0 ? -n : n
  const whole = Math.floor(abs / 10_000)
  const text = `${whole}${FRACTION_TEXT[abs - whole * 10_000]}`
  return n < 0 ? `-${text}` : text
}

export const add = (a: Money, b: Money): Money => (a + b) as Money
export const sub = (a: Money, b: Money): Money => (a - b) as Money
export const neg = (a: Money): Money => -a as Money
export const sum = (xs: Iterable<Money>): Money => {
  let t = 0n
  for (const x of xs) t += x
  return t as Money
}

/** The unit of each number of places, made once (a run rounds every amount it charges). */
const STEPS = [10_000n, 1_000n, 100n, 10n, 1n]

/** Rounds half away from zero to `places` (0..4) decimals. */
export function round(m: Money, places: number): Money {
  const step = STEPS[places] ?? 10n ** BigInt(MONEY_SCALE - places)
  return (divRoundHalfUp(m, step) * step) as Money
}

/** m × num / den, rounded half away from zero to 4 decimals; exact rational arithmetic. */
export function mulRatio(m: Money, num: bigint | number, den: bigint | number): Money {
  const n = BigInt(num)
  const d = BigInt(den)
  if (d === 0n) throw new RangeError('mulRatio: zero denominator')
  return divRoundHalfUp(m * n, d) as Money
}

/**
 * m × num / den, exact, rounded once half away from zero to `places` (0..4) decimals. Rounding
 * `mulRatio`'s 4-place result again would round twice: 10.06 × 3.33 % is exactly 0.334998, which
 * is 0.3350 to 4 places and then 0.34, where once to the penny it is 0.33.
 */
export function mulRatioRound(m: Money, num: bigint | number, den: bigint | number, places: number): Money {
  const step = STEPS[places] ?? 10n ** BigInt(MONEY_SCALE - places)
  const d = BigInt(den)
  if (d === 0n) throw new RangeError('mulRatioRound: zero denominator')
  return (divRoundHalfUp(m * BigInt(num), d * step) * step) as Money
}

/** Multiplies by an integer count (feature counts). */
export function times(m: Money, count: number): Money {
  if (!Number.isInteger(count)) throw new RangeError('times: count must be an integer')
  return (m * BigInt(count)) as Money
}

/** Scales by a decimal percentage given as Money-style units (e.g. 3.5% → 35000n), half up to 4 places. */
export function increaseByPercent(m: Money, percent: Money): Money {
  // m × (100 + p) / 100, with p in ten-thousandths: m × (1_000_000 + p) / 1_000_000
  return divRoundHalfUp(m * (1_000_000n + percent), 1_000_000n) as Money
}

function divRoundHalfUp(n: bigint, d: bigint): bigint {
  const negative = (n < 0n) !== (d < 0n)
  const an = n < 0n ? -n : n
  const ad = d < 0n ? -d : d
  const q = (an * 2n + ad) / (ad * 2n)
  return negative ? -q : q
}

export const compareMoney = (a: Money, b: Money): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The currency of an account whose `currency` is unset: its documents print its amounts in it
 * (contract 10.5) and a provider's payment to it must be in it (15.1).
 */
export const DEFAULT_CURRENCY = 'GBP'

/** The currency an account is billed in: its own `currency`, else `DEFAULT_CURRENCY`. */
export const accountCurrency = (currency: string | null | undefined): string => currency || DEFAULT_CURRENCY

/** The largest amount accepted (`MAX_MONEY` less one unit), as messages print it: 99999999999.9999. */
export const LARGEST_AMOUNT = formatAmount((MAX_MONEY - 1n) as Money)
