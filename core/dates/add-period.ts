import { periodUnits, type PeriodUnit } from '../presets/engine-lists.js'
import { addDays, addMonths, type DateOnly } from './date-only.js'

export type { PeriodUnit }

/** A unit name as stored (case ignored); a missing or unknown unit reads as months, the usual unit of notices and terms. */
export function toPeriodUnit(name: string | null): PeriodUnit {
  const lower = name?.toLowerCase() ?? ''
  return (periodUnits as readonly string[]).includes(lower) ? (lower as PeriodUnit) : 'months'
}

/** `date` + `length` units; months and years clamp to the month's end (Jan 31 + 1 month = Feb 28/29). */
export function addPeriod(date: DateOnly, length: number, unit: PeriodUnit): DateOnly {
  switch (unit) {
    case 'days':
      return addDays(date, length)
    case 'weeks':
      return addDays(date, 7 * length)
    case 'months':
      return addMonths(date, length)
    case 'years':
      return addMonths(date, 12 * length)
  }
}
