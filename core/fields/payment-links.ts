import { allReadOnly, idField, ownerRef, stampFields } from './common.js'
import { currency, field, stamp, text } from './field.js'
import { defineResource } from './resource.js'
import { paymentLinkStatuses } from '../presets/engine-lists.js'

/**
 * A payment link `generatePaymentLinks` made (contract 15.1), kept so that the provider's
 * callback can credit the customer: `GET /customers/<id>/paymentLinks/`.
 */
export const paymentLinks = defineResource({
  name: 'paymentLinks',
  singular: 'payment link',
  table: 'payment_links',
  fields: allReadOnly([
    idField,
    text('paymentLinkUUID', { unique: true, description: 'the identifier the links and the provider callbacks carry' }),
    ownerRef('customerID', 'customer the link is for'),
    currency('amount', { description: 'the amount outstanding when the link was generated' }),
    field('status', 'preset', { list: 'paymentLinkStatuses', values: paymentLinkStatuses, description: 'Open, Paid, or Expired (30 days old and unpaid)' }),
    field('links', 'json', { description: 'the links made: [{type, providerName, label, url}]' }),
    stamp('paidStamp', { description: 'when the provider reported it paid' }),
    ...stampFields(),
  ]),
  filters: [{ name: 'status', filter: { kind: 'oneOf', column: 'status', values: paymentLinkStatuses }, description: 'only links with this status' }],
})
