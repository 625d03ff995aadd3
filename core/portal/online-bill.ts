import type { Customer } from '../fields/entity.js'
import { billTypes, type BillType } from '../presets/delivery-lists.js'

/** What the portal's invoices page offers of each invoice. */
export interface OnlineOffer {
  /** The invoices are listed (number, date, total, status) at all. */
  readonly listed: boolean
  /** The HTML document and its PDF. */
  readonly documents: boolean
  /** The itemised calls as CSV. */
  readonly callsCsv: boolean
}

/**
 * The customer's `onlineBillType` (contract 14.2: "shown in the portal"), with the bill types'
 * meaning: `None` lists nothing, `Summary Only` the figures, `PDF` the documents, `CSV` the
 * itemised calls, `PDF + CSV` both. Unset, it keeps what the portal always offered, the
 * documents, and adds the calls CSV with GDPR/PECR consent. Without consent no type itemises
 * (contract 14.2: "no itemisation without consent"), as an email's does not (`emailBillTypeOf`)
 * and as the portal's documents leave their calls out: `PDF + CSV` offers the documents,
 * `CSV` the figures.
 */
export function onlineBillTypeOf(customer: Pick<Customer, 'onlineBillType' | 'GDPRPECRConsentGiven'>): BillType {
  const declared = customer.onlineBillType
  const consented = customer.GDPRPECRConsentGiven === 'Yes'
  if (!(billTypes as readonly (string | null | undefined)[]).includes(declared)) return consented ? 'PDF + CSV' : 'PDF'
  if (consented) return declared as BillType
  return declared === 'PDF + CSV' ? 'PDF' : declared === 'CSV' ? 'Summary Only' : (declared as BillType)
}

/** What a bill type offers in the portal. */
export function onlineOffer(type: BillType): OnlineOffer {
  return { listed: type !== 'None', documents: type === 'PDF' || type === 'PDF + CSV', callsCsv: type === 'CSV' || type === 'PDF + CSV' }
}
