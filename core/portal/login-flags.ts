import type { Customer, TelephoneNumber } from '../fields/entity.js'
import type { PortalPage } from '../presets/presets.js'
import type { OnlineOffer } from './online-bill.js'

/*
 * The flags of the legacy statistics site, which this portal is (contract 14.3), read for its
 * pages. The profile still decides the pages (its `pages`); the flags only take some away.
 *
 * A customer's `loginFlags` (the preset list `loginFlags`), when it names anything:
 * - `Invoices` keeps the `invoices` page, with each invoice's HTML and PDF;
 * - `Call Statistics` keeps the `calls` and `allowances` pages, and the itemised calls CSV of an
 *   invoice (which is listed on the invoices page, so it needs that page as well);
 * - `Usage Alerts` and `Numbers` keep nothing: the portal has no page of alerts or of numbers yet;
 * - `summary` and `payments` (what is owed, and paying it) are never taken away, nor Pay now.
 * Unset or empty: the profile's pages, as before. A page taken away answers as a page the
 * profile does not give (the portal's 404) and is left out of the navigation.
 *
 * A number's `loginFlagsAllow` / `loginFlagsDeny` (the preset list `statistics`): `Call
 * Statistics` in the deny list hides the number's calls from the calls page, its running total
 * and the invoices' calls CSV; an allow list that names anything shows them only if it names
 * `Call Statistics`; deny wins over allow. The other statistics (`Call Recording`, `Missed
 * Calls`, `Wallboard`) have no page here and change nothing. Not filtered: the invoice document
 * (HTML and PDF), which is the bill itself, and the allowances page, whose rows are plans and
 * pools (shared, and what is billed), not calls: a hidden number's use still counts in them.
 */

/** The flag that stands for the calls a number makes, in both lists. */
export const CALL_STATISTICS = 'Call Statistics'

/** What each customer flag keeps of the pages it governs. */
const FLAG_PAGES: Readonly<Record<string, readonly PortalPage[]>> = {
  Invoices: ['invoices'],
  [CALL_STATISTICS]: ['calls', 'allowances'],
  'Usage Alerts': [],
  Numbers: [],
}

/** Pages no flag takes away: the money owed and paying it. */
const ALWAYS: readonly PortalPage[] = ['summary', 'payments']

const named = (list: readonly string[] | null | undefined): list is readonly string[] => !!list && list.length > 0

/** The pages of the customer's profile that its `loginFlags` keep. */
export function pagesByLoginFlags(profilePages: readonly PortalPage[], customer: Pick<Customer, 'loginFlags'>): readonly PortalPage[] {
  const flags = customer.loginFlags
  if (!named(flags)) return profilePages
  const kept = new Set<PortalPage>([...ALWAYS, ...flags.flatMap((f) => FLAG_PAGES[f] ?? [])])
  return profilePages.filter((p) => kept.has(p))
}

/** What the online bill type offers, less the calls CSV when the customer's flags leave out call statistics. */
export function offerByLoginFlags(offer: OnlineOffer, customer: Pick<Customer, 'loginFlags'>): OnlineOffer {
  const flags = customer.loginFlags
  return named(flags) && !flags.includes(CALL_STATISTICS) ? { ...offer, callsCsv: false } : offer
}

/** Whether the portal shows the number's calls. */
export function showsNumberCalls(number: Pick<TelephoneNumber, 'loginFlagsAllow' | 'loginFlagsDeny'>): boolean {
  if (number.loginFlagsDeny?.includes(CALL_STATISTICS)) return false
  return !named(number.loginFlagsAllow) || number.loginFlagsAllow.includes(CALL_STATISTICS)
}
