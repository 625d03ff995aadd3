import { BillingError } from '../errors.js'
import type { Invoice } from '../fields/entity.js'
import { text } from '../fields/field.js'
import type { PlatformContext } from '../platform.js'
import { emailBillTypeOf } from './plan-deliveries.js'

/** `resend`'s body: `{}` (the customer's email) or `{"email": "..."}`. */
export const resendParams = [text('email', { description: 'send to this address instead of the customer email' })] as const

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Queues another email delivery of a raised invoice (contract 14.2), to `email` or the
 * customer's, with the customer's email bill type and consent, and (read when it is sent) the
 * customer's usage report profile, whatever address it goes to; the job sends it. A suppressed
 * invoice or a draft (contract 16.1) is never sent, and an address is needed.
 */
export async function queueResend(ctx: PlatformContext, invoice: Invoice, email: string | null | undefined): Promise<Invoice> {
  if (invoice.status === 'Draft') throw new BillingError('state_not_allowed', `Invoice ${invoice.id} is a draft: it is sent when its billing run is approved`, 'Approve its billing run (PATCH status "Approved"), then resend.')
  if (invoice.suppressed) throw new BillingError('state_not_allowed', `Invoice ${invoice.id} is suppressed: it is not sent`, 'A suppressed invoice (lowInvoiceAction Suppress) is never sent.')
  if (email != null && !EMAIL.test(email)) throw new BillingError('invalid_parameter', `email "${email}" is not an email address`, 'Give email as name@example.com, or {} for the customer email.')
  const customer = await ctx.store.repository('customers').get(invoice.customerID!)
  const to = email ?? customer?.email
  if (!customer || !to) throw new BillingError('state_not_allowed', `Customer ${invoice.customerID} has no email`, 'Give {"email": "..."} or set the customer email.')
  const billType = emailBillTypeOf(customer.emailBillType, customer.GDPRPECRConsentGiven)
  await ctx.store.invoiceOutbox.record(
    [{ invoiceID: invoice.id, customerID: customer.id, contactID: null, channel: 'email', recipient: to, billType: billType === 'None' ? 'PDF' : billType, status: 'Pending' }],
    ctx.clock.now(),
  )
  return invoice
}
