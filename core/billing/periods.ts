import { addDays, addMonths, daysBetween, maxDate, type DateOnly } from '../dates/date-only.js'

import { serviceChargeIntervals, type ServiceChargeInterval } from '../presets/engine-lists.js'

export { serviceChargeIntervals, type ServiceChargeInterval }


const MONTHS: Readonly<Record<ServiceChargeInterval, number>> = {
  Monthly: 1,
  Quarterly: 3,
  Annually: 12,
  'Calendar Monthly': 1,
  'Calendar Quarterly': 3,
  'Calendar Annually': 12,
}

export const isCalendarInterval = (i: ServiceChargeInterval): boolean => i.startsWith('Calendar')

/**
 * One billing period, `start`..`end` inclusive. `days` is the length of the whole interval the
 * period belongs to: the divisor for pro-rating. It differs from `end - start + 1` only for a
 * calendar feature's first period, which starts on the feature's start date.
 */
export interface Period {
  readonly start: DateOnly
  readonly end: DateOnly
  readonly days: number
}

/** How a feature's periods are laid out: its interval and its start date. */
export interface Schedule {
  readonly interval: ServiceChargeInterval
  readonly anchor: DateOnly
}

/** Days from `start` to `end`, both included. */
export const daysCovered = (start: DateOnly, end: DateOnly): number => daysBetween(start, end) + 1

const yearOf = (d: DateOnly): number => Number(d.slice(0, 4))
const monthOf = (d: DateOnly): number => Number(d.slice(5, 7))

/**
 * The period holding `date`, or null before the schedule's anchor.
 *
 * Anchored intervals (Monthly, Quarterly, Annually) start period k on `anchor + k × n months`,
 * always counted from the anchor, so a month-end anchor keeps its day where the month has it:
 * Jan 31 gives periods starting Feb 28 (29), Mar 31, Apr 30, May 31, ... and each period ends the
 * day before the next one starts. Calendar intervals use the month, quarter or year holding the
 * date; the first period starts on the anchor and keeps the whole calendar period's `days`.
 */
export function periodContaining(s: Schedule, date: DateOnly): Period | null {
  if (date < s.anchor) return null
  const periods = layoutOf(s)
  return periods.at(periods.indexOf(date))
}

/** Periods in order, from the one holding `from` (or the first, when `from` is before the anchor). */
export function* periodsFrom(s: Schedule, from: DateOnly): Generator<Period> {
  const periods = layoutOf(s)
  for (let k = periods.indexOf(maxDate(from, s.anchor)); ; k++) yield periods.at(k)
}

/**
 * A schedule's periods, numbered from 0 (the one holding the anchor) and laid out on first use.
 * Features with the same interval and start date share one layout (see `layoutOf`): a billing
 * run plans thousands of them, and computing each feature's periods again was most of planning
 * it (bench/billing-run.ts; figures in bench/RESULTS.md). Periods are never changed.
 */
export class PeriodLayout {
  private readonly periods: Period[] = []
  /** Start of the period after the last one laid out. */
  private next: DateOnly

  constructor(private readonly s: Schedule) {
    const first = computedPeriod(s, s.anchor)
    this.periods.push(first)
    this.next = addDays(first.end, 1)
  }

  /** Period k (k ≥ 0), laying out the ones before it as needed. */
  at(k: number): Period {
    const periods = this.periods
    while (periods.length <= k) {
      const p = computedPeriod(this.s, this.next)
      periods.push(p)
      this.next = addDays(p.end, 1)
      laidOut++
    }
    return periods[k]
  }

  /** The number of the period holding `date`, on or after the anchor: estimated from whole months, then stepped. */
  indexOf(date: DateOnly): number {
    const months = monthIndex(date) - monthIndex(this.s.anchor)
    let k = Math.max(0, Math.floor(months / MONTHS[this.s.interval]))
    while (k > 0 && this.at(k).start > date) k--
    while (this.at(k).end < date) k++
    return k
  }
}

/** Periods laid out, by interval and anchor. */
const layouts = new Map<ServiceChargeInterval, Map<DateOnly, PeriodLayout>>()
/** Periods held by the layouts: past this they are dropped and laid out again when asked for. */
const MAX_LAID_OUT = 200_000
let laidOut = 0

/** The shared layout of a schedule's periods. */
export function layoutOf(s: Schedule): PeriodLayout {
  let byAnchor = layouts.get(s.interval)
  if (!byAnchor) layouts.set(s.interval, (byAnchor = new Map()))
  let layout = byAnchor.get(s.anchor)
  if (!layout) {
    if (laidOut > MAX_LAID_OUT) {
      for (const m of layouts.values()) m.clear()
      laidOut = 0
    }
    byAnchor.set(s.anchor, (layout = new PeriodLayout(s)))
    laidOut++
  }
  return layout
}

/** Months since year 0 of a `YYYY-MM-DD` date, from its character codes. */
function monthIndex(d: DateOnly): number {
  const n = d.length
  let year = 0
  for (let i = 0; i < n - 6; i++) year = year * 10 + d.charCodeAt(i) - 48
  return year * 12 + (d.charCodeAt(n - 5) - 48) * 10 + d.charCodeAt(n - 4) - 48 - 1
}

/** The period holding `date` (on or after the anchor), computed from the schedule alone. */
function computedPeriod(s: Schedule, date: DateOnly): Period {
  const n = MONTHS[s.interval]
  if (isCalendarInterval(s.interval)) {
    const firstMonth = Math.floor((monthOf(date) - 1) / n) * n + 1
    const calendarStart = `${date.slice(0, 4)}-${String(firstMonth).padStart(2, '0')}-01` as DateOnly
    const next = addMonths(calendarStart, n)
    return { start: maxDate(calendarStart, s.anchor), end: addDays(next, -1), days: daysBetween(calendarStart, next) }
  }
  const startOf = (k: number): DateOnly => addMonths(s.anchor, k * n)
  const monthsApart = (yearOf(date) - yearOf(s.anchor)) * 12 + monthOf(date) - monthOf(s.anchor)
  let k = Math.max(0, Math.floor(monthsApart / n))
  while (k > 0 && startOf(k) > date) k--
  while (startOf(k + 1) <= date) k++
  const start = startOf(k)
  const next = startOf(k + 1)
  return { start, end: addDays(next, -1), days: daysBetween(start, next) }
}
