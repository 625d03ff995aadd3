import { addPeriod, toPeriodUnit, type PeriodUnit } from '../dates/add-period.js'
import { addDays, parseDate, type DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import type { Item, Values } from '../fields/item.js'

/**
 * The feature fields the contract derives from others on create and update (contract 11): term
 * dates from term lengths, and the committed count from `featureCountCommittedAuto`.
 */

/** A date derived from a length: `…PeriodLength`/`…Type` → the date field, ending the day before (terms) or on (renewal). */
const TERMS = [
  { length: 'minimumTermPeriodLength', date: 'minimumTermDate', lastDay: true },
  { length: 'committedTermPeriodLength', date: 'committedTermDate', lastDay: true },
  { length: 'renewalPeriodLength', date: 'renewalDate', lastDay: false },
] as const

/** The term dates: given in a request, even as stored, they win over the ones a length gives. */
export const TERM_DATES: readonly string[] = TERMS.map((t) => t.date)

const isDate = (v: unknown): v is DateOnly => typeof v === 'string'
const isLength = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0

/** The date a term length gives from `start`, or null when the feature has no such length. */
function termDate(item: Readonly<Record<string, unknown>>, term: (typeof TERMS)[number], start: unknown): DateOnly | null {
  const length = item[term.length]
  if (!isDate(start) || !isLength(length)) return null
  const unit = item[`${term.length}Type`]
  const end = addPeriod(start, length, toPeriodUnit(typeof unit === 'string' ? unit : null))
  return term.lastDay ? addDays(end, -1) : end
}

/**
 * The term dates to store besides `values` (a create when `current` is null): a date the request
 * does not give is derived when the request sets its length, its unit or the start date, unless
 * the stored date was not the one the old start and length gave (then a person set it, and it stays).
 */
export function derivedTermDates(values: Values, current: Item | null): Values {
  const after = { ...current, ...values }
  const out: Values = {}
  for (const term of TERMS) {
    if (term.date in values) continue
    const lengthChanged = term.length in values || `${term.length}Type` in values
    const startChanged = 'startDate' in values
    if (current && !lengthChanged && !startChanged) continue
    const derived = termDate(after, term, after.startDate)
    if (derived === null) continue
    if (current && !lengthChanged) {
      const stored = current[term.date] ?? null
      if (stored !== null && stored !== termDate(current, term, current.startDate)) continue
    }
    // Past 9999-12-31 a date has five digits and no longer compares as text (billing compares term dates).
    if (parseDate(derived) === null) {
      throw new BillingError(
        'invalid_field',
        `Field "${term.length}" of feature gives ${term.date} ${derived}, after 9999-12-31`,
        `Give a shorter "${term.length}", an earlier "startDate", or "${term.date}" itself.`,
      )
    }
    out[term.date] = derived
  }
  return out
}

/**
 * The committed count `featureCountCommittedAuto` sets besides `values`: `Initial Count` fills it
 * with the count on create when not given; `Peak Count` raises it to the highest count the feature
 * has had (never lowers it). Null when the mode leaves it alone.
 */
export function autoCommittedCount(values: Values, current: Item | null): number | null {
  const after = { ...current, ...values }
  const mode = after.featureCountCommittedAuto
  const count = typeof after.featureCount === 'number' ? after.featureCount : 1
  const committed = typeof after.featureCountCommitted === 'number' ? after.featureCountCommitted : null
  if (mode === 'Initial Count') return !current && committed === null ? count : null
  if (mode === 'Peak Count') return committed === null || count > committed ? count : null
  return null
}

/** Both rules of this module at once: the values to store besides the request's. */
export function derivedFeatureValues(values: Values, current: Item | null): Values {
  const out = derivedTermDates(values, current)
  const committed = autoCommittedCount(values, current)
  if (committed !== null) out.featureCountCommitted = committed
  return out
}

/**
 * The renewal date a billing run stores: moved on by the renewal length while it is before the
 * run's cutoff (contract 11); null when it stays (no length, or not yet due). Months and years are
 * counted from the start date each time, as periods are (31 Jan → 28 Feb → 31 Mar; 29 Feb → 28 Feb
 * → 29 Feb in a leap year): adding to a date already clamped would keep the 28th for good. A date a
 * person set off that count is counted from instead.
 */
export function rolledRenewalDate(
  f: { readonly startDate?: DateOnly | null; readonly renewalDate: DateOnly | null; readonly renewalPeriodLength: number | null; readonly renewalPeriodLengthType: string | null },
  cutoff: DateOnly,
): DateOnly | null {
  const length = f.renewalPeriodLength
  const date = f.renewalDate
  if (date === null || date >= cutoff || !isLength(length)) return null
  const unit = toPeriodUnit(f.renewalPeriodLengthType)
  const steps = f.startDate ? stepsFromStart(f.startDate, date, length, unit) : null
  const from = steps === null ? date : f.startDate!
  let k = steps ?? 0
  let next = date
  while (next < cutoff) next = addPeriod(from, ++k * length, unit)
  return next
}

/** How many renewal lengths of months or years `date` is from `start`, when it is exactly that many; else null. */
function stepsFromStart(start: DateOnly, date: DateOnly, length: number, unit: PeriodUnit): number | null {
  if (unit !== 'months' && unit !== 'years') return null
  const step = unit === 'years' ? 12 * length : length
  const months = (Number(date.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(date.slice(5, 7)) - Number(start.slice(5, 7))
  if (months <= 0 || months % step !== 0) return null
  return addPeriod(start, (months / step) * length, unit) === date ? months / step : null
}
