import { BillingError, quoted } from '../errors.js'
import type { Customer, TelephoneNumber } from '../fields/entity.js'
import { billPages, type BillPage } from '../presets/engine-lists.js'

/** Which of the customer's page lists a document uses (contract 10.5); `long` when not given. */
export const billLengths = ['short', 'long'] as const
export type BillLength = (typeof billLengths)[number]

/** `pages` as a caller gives it: absent means `long`; anything else but `short` or `long` is refused. */
export function parseBillLength(raw: unknown): BillLength {
  if (raw === undefined || raw === null) return 'long'
  if (billLengths.includes(raw as BillLength)) return raw as BillLength
  throw new BillingError('invalid_query', `pages must be short or long, not ${quoted(String(raw))}`, 'Give pages=short (the customer\'s shortBillPages) or pages=long (longBillPages, the default).')
}

/** The pages a customer's document shows, in `billPages` order: its short or long list; an empty list means all. */
export function pagesOf(customer: Pick<Customer, 'shortBillPages' | 'longBillPages'>, length: BillLength): BillPage[] {
  const chosen = (length === 'short' ? customer.shortBillPages : customer.longBillPages) ?? []
  return chosen.length ? billPages.filter((p) => chosen.includes(p)) : [...billPages]
}

type PagedNumber = Pick<TelephoneNumber, 'id' | 'shortBillPages' | 'longBillPages'>

/**
 * Whether a number's part of a page is shown: a number's own page list, when set, limits its
 * part of the Charges and calls pages (contract 10.5). Lines of no number always show.
 */
export function numberShows(numbers: ReadonlyMap<string, PagedNumber>, length: BillLength) {
  return (numberID: string | null, page: BillPage): boolean => {
    const number = numberID ? numbers.get(numberID) : undefined
    if (!number) return true
    const own = (length === 'short' ? number.shortBillPages : number.longBillPages) ?? []
    return own.length === 0 || own.includes(page)
  }
}

/** `numberShows` as the section builders take it. */
export type NumberShows = ReturnType<typeof numberShows>
