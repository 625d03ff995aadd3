import { addDays, addMonths, daysBetween, maxDate, type DateOnly } from '../dates/date-only.js'

/** The `serviceChargeIntervals` preset names the billing engine understands. */
export const serviceChargeIntervals = [
  'Monthly',
  'Quarterly',
  'Annually',
  'Calendar Monthly',
  'Calendar Quarterly',
  'Calendar Annually',
] as const

export type ServiceChargeInterval = (typeof serviceChargeIntervals)[number]

/** The interval for a preset name; null for a name the engine does not know. */
export function parseInterval(name: unknown): ServiceChargeInterval | null {
  return (serviceChargeIntervals as readonly unknown[]).includes(name) ? (name as ServiceChargeInterval) : null
}

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
  const n = MONTHS[s.interval]
  if (isCalendarInterval(s.interval)) {
    const firstMonth = Math.floor((monthOf(date) - 1) / n) * n + 1
    const calendarStart = `${date.slice(0, 4)}-${String(firstMonth).padStart(2, '0')}-01` as DateOnly
    const next = addMonths(calendarStart, n)
    return { start: maxDate(calendarStart, s.anchor), end: addDays(next, -1), days: daysBetween(calendarStart, next) }
  }
  const at = anchoredAt(s.anchor, n, date)
  return anchoredPeriod(at.start, at.next)
}

/** Where an anchored schedule stands on a day: the index of the period holding it, its start and the next one's. */
interface AnchoredPosition {
  k: number
  start: DateOnly
  next: DateOnly
}

/**
 * Period k starts `anchor + k × n months`. Each start is computed once: the search used to
 * recompute both bounds on every step, which made laying out periods most of planning a
 * feature (bench/billing-run.ts).
 */
function anchoredAt(anchor: DateOnly, n: number, date: DateOnly): AnchoredPosition {
  const monthsApart = (yearOf(date) - yearOf(anchor)) * 12 + monthOf(date) - monthOf(anchor)
  let k = Math.max(0, Math.floor(monthsApart / n))
  let start = addMonths(anchor, k * n)
  while (k > 0 && start > date) start = addMonths(anchor, --k * n)
  let next = addMonths(anchor, (k + 1) * n)
  while (next <= date) {
    start = next
    next = addMonths(anchor, (++k + 1) * n)
  }
  return { k, start, next }
}

const anchoredPeriod = (start: DateOnly, next: DateOnly): Period => ({ start, end: addDays(next, -1), days: daysBetween(start, next) })

/** Periods in order, from the one holding `from` (or the first, when `from` is before the anchor). */
export function* periodsFrom(s: Schedule, from: DateOnly): Generator<Period> {
  const first = maxDate(from, s.anchor)
  if (isCalendarInterval(s.interval)) {
    for (let p = periodContaining(s, first); p; p = periodContaining(s, addDays(p.end, 1))) yield p
    return
  }
  // An anchored schedule steps from one period's start to the next without searching again.
  const n = MONTHS[s.interval]
  let { k, start, next } = anchoredAt(s.anchor, n, first)
  for (;;) {
    yield anchoredPeriod(start, next)
    start = next
    next = addMonths(s.anchor, (++k + 1) * n)
  }
}
