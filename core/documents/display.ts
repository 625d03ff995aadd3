import type { DateOnly } from '../dates/date-only.js'
import { accountCurrency, round, type Money } from '../money/money.js'

/** Symbols of the currencies the default presets list; another code is written before the amount. */
const symbols: Readonly<Record<string, string>> = { GBP: '£', EUR: '€', USD: '$' }

/** Writes money for a reader (contract 10.5): the currency's symbol, 2 decimals (half up), thousands grouped. */
export function displayMoney(amount: Money, currency: string | null): string {
  const pence = round(amount, 2) / 100n
  const negative = pence < 0n
  const abs = negative ? -pence : pence
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const fraction = (abs % 100n).toString().padStart(2, '0')
  const code = accountCurrency(currency)
  const symbol = symbols[code] ?? `${code} `
  return `${negative ? '-' : ''}${symbol}${whole}.${fraction}`
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** `2026-01-31` → `31 Jan 2026`; null → empty. */
export function displayDate(date: DateOnly | string | null): string {
  if (!date) return ''
  const [y, m, d] = date.slice(0, 10).split('-')
  return `${Number(d)} ${months[Number(m) - 1]} ${y}`
}

/** A period `from`–`to` (one date when they are the same or one is missing). */
export function displayPeriod(from: string | null, to: string | null): string {
  if (from && to && from !== to) return `${displayDate(from)} – ${displayDate(to)}`
  return displayDate(from ?? to)
}

/** Seconds as `m:ss`, or `h:mm:ss` from an hour. */
export function displayDuration(seconds: number): string {
  const whole = Math.round(seconds)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const s = String(whole % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/** A stamp's date and time of day (UTC, as the platform stores it): `14 Jan 2026`, `10:05:00`. */
export function displayStamp(stamp: string | null): { date: string; time: string } {
  if (!stamp) return { date: '', time: '' }
  return { date: displayDate(stamp.slice(0, 10)), time: stamp.slice(11, 19) }
}

/** Whole numbers grouped by thousands. */
export const displayCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
