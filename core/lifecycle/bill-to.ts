import { addDays, addMonths, maxDate, type DateOnly } from '../dates/date-only.js'
import type { FeatureTerms } from './state.js'

import { periodUnits, type PeriodUnit } from '../presets/engine-lists.js'

export type { PeriodUnit }

/** A unit name as stored (case ignored); a missing or unknown unit reads as months, the usual notice unit. */
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

export interface BillToInput {
  readonly dateDrop: DateOnly
  /** Given with the drop: overrides everything. */
  readonly dateBillTo?: DateOnly | null
  /** Given with the drop: wins over the feature's stored notice date. */
  readonly cancellationNoticeGivenDate?: DateOnly | null
  readonly terms?: FeatureTerms
}

/**
 * The bill-to date of a dropped feature (contract 5.5): `dateBillTo` if given, else the latest of
 * `dateDrop`, `minimumTermDate`, and, when `noticePeriodLength` is set (a whole number ≥ 0;
 * fractions are cut), `(cancellationNoticeGivenDate or dateDrop) + notice period − 1 day`.
 */
export function featureBillTo(input: BillToInput): DateOnly {
  if (input.dateBillTo) return input.dateBillTo
  const terms = input.terms
  let billTo = input.dateDrop
  if (terms?.minimumTermDate) billTo = maxDate(billTo, terms.minimumTermDate)
  const length = terms?.noticePeriodLength
  if (terms && typeof length === 'number' && Number.isFinite(length) && length >= 0) {
    const from = input.cancellationNoticeGivenDate ?? terms.cancellationNoticeGivenDate ?? input.dateDrop
    const end = addDays(addPeriod(from, Math.trunc(length), toPeriodUnit(terms.noticePeriodLengthType)), -1)
    billTo = maxDate(billTo, end)
  }
  return billTo
}
