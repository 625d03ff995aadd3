import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'

import { timeBands, type TimeBand } from '../presets/engine-lists.js'

export { timeBands, type TimeBand }

/** First hour of the day band and first hour after it (UTC). */
export const DAY_STARTS = 8
export const DAY_ENDS = 18

/**
 * The band a call starting at `start` falls in, in UTC: `weekend` on Saturday and Sunday,
 * `day` Monday to Friday from 08:00:00 up to (not including) 18:00:00, `evening` at every other
 * weekday time. Public holidays are ordinary days.
 */
export function timeBandOf(start: Stamp): Exclude<TimeBand, 'any'> {
  // Read from the stamp's digits: slicing out the date and hour made four strings a call.
  const canonical = start.charCodeAt(4) === 45 && start.charCodeAt(10) === 84 // YYYY-…T
  const weekday = canonical ? weekdayOfDays(daysFromCivil(digits(start, 0, 4), digits(start, 5, 2), digits(start, 8, 2))) : weekdayOf(dateOfStamp(start))
  if (weekday === 0 || weekday === 6) return 'weekend'
  const hour = canonical ? digits(start, 11, 2) : Number(start.slice(11, 13))
  return hour >= DAY_STARTS && hour < DAY_ENDS ? 'day' : 'evening'
}

/** The number `count` decimal digits at `at` spell (the caller knows they are digits). */
export function digits(s: string, at: number, count: number): number {
  let n = 0
  for (let i = at; i < at + count; i++) n = n * 10 + s.charCodeAt(i) - 48
  return n
}

/** The UTC calendar date of a stamp (stamps are canonical UTC text). */
export const dateOfStamp = (s: Stamp): DateOnly => s.slice(0, 10) as DateOnly

/** 0 = Sunday … 6 = Saturday, by pure arithmetic on the proleptic Gregorian calendar. */
export function weekdayOf(d: DateOnly): number {
  return weekdayOfDays(daysFromCivil(Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10))))
}

const weekdayOfDays = (days: number): number => (((days + 4) % 7) + 7) % 7 // 1970-01-01 was a Thursday

/** Days since 1970-01-01 (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}
