import type { Customer } from '../fields/entity.js'
import type { InvoiceDocument } from './document-model.js'

/**
 * An invoice document as its customer is given it, by email or in the portal (contract 14.2,
 * 14.3): without GDPR/PECR consent, no itemised calls, in the PDF or the HTML page either, as
 * without consent no email carries the calls CSV. The API's document (10.5) stays whole: it is
 * the seller's own view.
 */
export function customerCopy(doc: InvoiceDocument, customer: Pick<Customer, 'GDPRPECRConsentGiven'>): InvoiceDocument {
  if (customer.GDPRPECRConsentGiven === 'Yes') return doc
  return { ...doc, sections: doc.sections.filter((s) => s.page !== 'Itemised Calls') }
}
