import type { Customer } from '../fields/entity.js'

/**
 * The `billFormatOverride` names the documents know (presets `billFormatOverrides`). The list is
 * an operator's: it may hold names the code does not know, which lay out as unset.
 */
export const knownBillFormats = ['Landscape', 'Itemised by Site', 'Cost Centre'] as const
export type KnownBillFormat = (typeof knownBillFormats)[number]

/** Which way up a document's sheets are. */
export type Orientation = 'portrait' | 'landscape'

/** What lines of a page are grouped under headings by: their site, or their number's `displayWith`. */
export type GroupBy = 'site' | 'costCentre'

/** How a customer's override lays its documents out. */
export interface BillFormat {
  readonly orientation: Orientation
  readonly groupBy: GroupBy | null
}

const formats: Readonly<Record<KnownBillFormat, BillFormat>> = {
  Landscape: { orientation: 'landscape', groupBy: null },
  'Itemised by Site': { orientation: 'portrait', groupBy: 'site' },
  'Cost Centre': { orientation: 'portrait', groupBy: 'costCentre' },
}

const AS_TODAY: BillFormat = { orientation: 'portrait', groupBy: null }

/**
 * A customer's `billFormatOverride` ("optional invoice layout override profile") as the
 * document model reads it. Like `billStyle`, it changes layout, not content (contract 10.5):
 * - unset: portrait A4, lines grouped as the pages always group them;
 * - `Landscape`: A4 landscape sheets (PDF), tables across the wider page, and an
 *   `@page { size: A4 landscape }` print rule (HTML), for the copies sent by email and shown in
 *   the portal; the bill-to address keeps its place, top left. The print file (contract 14.2)
 *   stays portrait, for the window envelope (core/delivery/print-file.ts);
 * - `Itemised by Site`: the Itemised Calls, Charges and Services pages group their lines under a
 *   heading per site ("Site <name>", else "No site", last), each group with its count and
 *   subtotal, then the page's total. A call's site is its number's `site`; a charge's is its
 *   feature's `site`, else its number's, else its service's;
 * - `Cost Centre`: the same, keyed by the number's `displayWith` ("Cost centre <name>", else
 *   "Unassigned"; this platform has no other cost-centre field), for the Charges, Calls by
 *   Number and Itemised Calls pages;
 * - any other name (an operator may add one to the list): as unset, as an unknown `billStyle`
 *   lays out as `Standard`.
 */
export function billFormatOf(customer: Pick<Customer, 'billFormatOverride'>): BillFormat {
  const name = customer.billFormatOverride
  return name && Object.hasOwn(formats, name) ? formats[name as KnownBillFormat] : AS_TODAY
}
