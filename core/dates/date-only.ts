/**
 * A calendar date as strict `YYYY-MM-DD` text. Text compares in calendar order, so the
 * database stores it as text on every dialect and range filters stay index-friendly.
 */
export type DateOnly = string & { readonly __date: unique symbol }

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date in strict form, or null (2025-02-29, 2025-2-1, 2025-01-01T00:00 are null). */
export function parseDate(input: unknown): DateOnly | null {
  if (typeof input !== 'string') return null
  const m = DATE.exec(input)
  if (!m) return null
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null
  return input as DateOnly
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
}

export function daysInMonth(y: number, month: number): number {
  return [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). Billing
 * lays out periods for every feature of a run, so this is integer arithmetic rather than
 * Date objects and formatting (bench/billing-run.ts; figures in bench/RESULTS.md).
 * Out-of-range days roll over (Feb 30 is Mar 1 or 2), as Date's would.
 */
function dayNumber(d: DateOnly): number {
  const { year, m, day } = partsOf(d)
  const y = m <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + day - 1
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468
}

/** The date of a day number (civil_from_days). */
function fromDayNumber(n: number): DateOnly {
  const z = n + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  return format(yoe + era * 400 + (m <= 2 ? 1 : 0), m, day)
}

/** Year, month and day of `Y…Y-MM-DD`, read from the character codes (no arrays or substrings). */
function partsOf(d: string): { year: number; m: number; day: number } {
  const n = d.length
  let year = 0
  for (let i = 0; i < n - 6; i++) year = year * 10 + d.charCodeAt(i) - 48
  return { year, m: (d.charCodeAt(n - 5) - 48) * 10 + d.charCodeAt(n - 4) - 48, day: (d.charCodeAt(n - 2) - 48) * 10 + d.charCodeAt(n - 1) - 48 }
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))
const format = (y: number, m: number, d: number): DateOnly => `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}` as DateOnly

export const addDays = (d: DateOnly, n: number): DateOnly => fromDayNumber(dayNumber(d) + n)
/** Adds calendar months, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(d: DateOnly, n: number): DateOnly {
  const { year: y, m, day } = partsOf(d)
  const months = y * 12 + (m - 1) + n
  const year = Math.floor(months / 12)
  const month = months - year * 12 + 1
  // A day past the source month's end rolls over first, as Date does before date-fns clamps.
  if (day > daysInMonth(y, m)) return addMonths(addDays(d, 0), n)
  return format(year, month, Math.min(day, daysInMonth(year, month)))
}
/** b − a in days. */
export const daysBetween = (a: DateOnly, b: DateOnly): number => dayNumber(b) - dayNumber(a)

export const minDate = (a: DateOnly, b: DateOnly): DateOnly => (a <= b ? a : b)
export const maxDate = (a: DateOnly, b: DateOnly): DateOnly => (a >= b ? a : b)

/** The calendar date (UTC) of an instant. */
export function dateOfInstant(epochMs: number): DateOnly {
  return new Date(epochMs).toISOString().slice(0, 10) as DateOnly
}

/** Calendar months from `from` to `to` (15 Jan → 1 Apr is 3): the day of the month plays no part. */
export function calendarMonthsBetween(from: DateOnly, to: DateOnly): number {
  const month = (d: DateOnly) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7))
  return month(to) - month(from)
}
