import { parseDate } from '../dates/date-only.js'
import { BillingError, quoted } from '../errors.js'
import type { DateRange } from '../ports/books.js'

/** A report's query parameters, by name (a URL's search parameters). */
export interface ReportParams {
  get(name: string): string | null
}

/** `from` and `to` (YYYY-MM-DD, both optional, inclusive), else `400103` naming the parameter. */
export function dateRangeOf(params: ReportParams): DateRange {
  const date = (name: 'from' | 'to') => {
    const text = params.get(name)
    if (text === null || text === '') return null
    const parsed = parseDate(text)
    if (!parsed) throw new BillingError('invalid_query', `${name} ${quoted(text)} is not a date YYYY-MM-DD`, `Give ?${name}=2026-01-31, or leave it out.`)
    return parsed
  }
  const range = { from: date('from'), to: date('to') }
  if (range.from && range.to && range.from > range.to) throw new BillingError('invalid_query', `from ${range.from} is after to ${range.to}`, 'Give a from on or before the to.')
  return range
}

/** A parameter that must be one of `values` (`fallback` when absent), else `400103` listing them. */
export function oneOf<T extends string>(params: ReportParams, name: string, values: readonly T[], fallback: T): T {
  const text = params.get(name)
  if (text === null || text === '') return fallback
  if (!(values as readonly string[]).includes(text)) throw new BillingError('invalid_query', `${name} ${quoted(text)} is not one of ${values.join(', ')}`, `Give ?${name}=${values[0]}.`)
  return text as T
}
