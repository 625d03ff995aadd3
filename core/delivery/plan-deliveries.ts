import type { Customer, Invoice } from '../fields/entity.js'
import type { ContactCopy, NewDelivery } from '../ports/invoice-outbox.js'
import { billTypes, type BillType } from '../presets/delivery-lists.js'
import { copiedOn, correspondenceSent } from './correspondence.js'

/** What deciding a customer's deliveries reads of it (a billing run reads these fields too). */
export type DeliveryCustomer = Pick<Customer, 'id' | 'email' | 'emailBillType' | 'postBillType' | 'faxBillType' | 'GDPRPECRConsentGiven'>

const known = (name: string | null | undefined): BillType | null => (billTypes as readonly (string | null | undefined)[]).includes(name) ? (name as BillType) : null

/**
 * What an email carries (contract 14.2): the bill type given, else `PDF + CSV` with GDPR/PECR
 * consent and `Summary Only` without; and without consent never the itemised calls.
 */
export function emailBillTypeOf(declared: string | null | undefined, consent: string | null | undefined): BillType {
  const consented = consent === 'Yes'
  const type = known(declared) ?? (consented ? 'PDF + CSV' : 'Summary Only')
  if (consented) return type
  return type === 'PDF + CSV' ? 'PDF' : type === 'CSV' ? 'Summary Only' : type
}

/**
 * The deliveries of a raised invoice: an email to the customer's address, a copy to each contact
 * copied on invoices (`copiedOn`), the run's print file for a post bill type, a fax recorded as skipped.
 * A suppressed invoice (10.4) gets none; nor does a channel whose bill type is `None`.
 */
export function planDeliveries(invoice: Pick<Invoice, 'id' | 'billingRunID' | 'suppressed'>, customer: DeliveryCustomer, contacts: readonly ContactCopy[]): NewDelivery[] {
  if (invoice.suppressed) return []
  const out: NewDelivery[] = []
  const base = { invoiceID: invoice.id, customerID: customer.id, contactID: null, status: 'Pending' } as const
  const consent = customer.GDPRPECRConsentGiven
  if (customer.email) {
    const billType = emailBillTypeOf(customer.emailBillType, consent)
    if (billType !== 'None') out.push({ ...base, channel: 'email', recipient: customer.email, billType })
  }
  for (const contact of contacts) {
    if (!copiedOn(contact, correspondenceSent.invoice)) continue
    const billType = emailBillTypeOf(contact.emailBillType, consent)
    if (billType !== 'None') out.push({ ...base, contactID: contact.contactID, channel: 'email', recipient: contact.email, billType })
  }
  const post = known(customer.postBillType)
  if (post && post !== 'None') out.push({ ...base, channel: 'post', recipient: invoice.billingRunID ? `billing run ${invoice.billingRunID} print file` : null, billType: post })
  const fax = known(customer.faxBillType)
  if (fax && fax !== 'None') out.push({ ...base, channel: 'fax', recipient: null, billType: fax, status: 'Skipped' })
  return out
}
