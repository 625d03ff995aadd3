import { addDays as fnsAddDays, addMonths as fnsAddMonths, differenceInCalendarDays, format } from 'date-fns'

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

/** Local-calendar Date at midnight for date-fns arithmetic; setFullYear keeps years below 100 literal. */
function toCalendar(d: DateOnly): Date {
  const [y, m, day] = d.split('-').map(Number)
  const date = new Date(2000, 0, 1)
  date.setFullYear(y, m - 1, day)
  return date
}

function fromCalendar(date: Date): DateOnly {
  const y = String(date.getFullYear()).padStart(4, '0')
  return `${y}-${format(date, 'MM-dd')}` as DateOnly
}

export const addDays = (d: DateOnly, n: number): DateOnly => fromCalendar(fnsAddDays(toCalendar(d), n))
/** Adds calendar months, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export const addMonths = (d: DateOnly, n: number): DateOnly => fromCalendar(fnsAddMonths(toCalendar(d), n))
/** b − a in days. */
export const daysBetween = (a: DateOnly, b: DateOnly): number =>
  differenceInCalendarDays(toCalendar(b), toCalendar(a))

export const minDate = (a: DateOnly, b: DateOnly): DateOnly => (a <= b ? a : b)
export const maxDate = (a: DateOnly, b: DateOnly): DateOnly => (a >= b ? a : b)

/** The calendar date (UTC) of an instant. */
export function dateOfInstant(epochMs: number): DateOnly {
  return new Date(epochMs).toISOString().slice(0, 10) as DateOnly
}
