import { parseDate } from '../dates/date-only.js'
import { BillingError, quoted } from '../errors.js'
import type { DateRange } from '../ports/books.js'
import type { Presets } from '../presets/presets.js'
import { DEFAULT_CURRENCY } from '../money/money.js'

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

/**
 * `currency` (optional): one of the presets' `currencies` (or the default an account without one
 * is billed in), else `400103`. A report's sums add amounts of one currency only when it is given.
 */
export function currencyOf(params: ReportParams, presets: Pick<Presets, 'lists'>): string | null {
  const currencies = presets.lists.currencies ?? []
  const text = params.get('currency')
  if (text === null || text === '') return null
  const known = currencies.includes(DEFAULT_CURRENCY) ? currencies : [DEFAULT_CURRENCY, ...currencies]
  if (!known.includes(text)) throw new BillingError('invalid_query', `currency ${quoted(text)} is not one of ${known.join(', ')}`, `Give ?currency=${known[0]}, or leave it out.`)
  return text
}
