import { addDays, maxDate, type DateOnly } from '../dates/date-only.js'
import type { FeatureTerms } from './state.js'
import { addPeriod, toPeriodUnit } from '../dates/add-period.js'

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
