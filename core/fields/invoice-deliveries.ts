import { allReadOnly, idField, stampFields } from './common.js'
import { field, num, ref, stamp, text } from './field.js'
import { defineResource } from './resource.js'
import { billTypes, deliveryChannels, deliveryPurposes, invoiceDeliveryStatuses } from '../presets/delivery-lists.js'

/**
 * One invoice to one recipient on one channel (contract 14.2: `GET /invoices/<id>/deliveries/`),
 * recorded when the invoice is raised and sent by the `invoice-delivery` job: the outbox.
 */
export const invoiceDeliveries = defineResource({
  name: 'invoiceDeliveries',
  singular: 'invoice delivery',
  table: 'invoice_deliveries',
  fields: allReadOnly([
    idField,
    ref('invoiceID', { description: 'invoice sent' }),
    ref('customerID', { description: 'customer of the invoice' }),
    ref('contactID', { description: 'the contact a copy goes to (null: the customer itself)' }),
    field('channel', 'preset', { list: 'deliveryChannels', values: deliveryChannels, description: 'email, post (the run\'s print file) or fax (recorded, never sent)' }),
    text('recipient', { description: 'email address, or the postal address on one line' }),
    field('billType', 'preset', { list: 'billTypes', values: billTypes, description: 'what is sent: PDF, PDF + CSV, CSV or Summary Only' }),
    field('status', 'preset', { list: 'invoiceDeliveryStatuses', values: invoiceDeliveryStatuses, description: 'Pending, Sent, Failed or Skipped' }),
    num('attempts', { description: 'attempts made' }),
    stamp('nextAttemptStamp', { description: 'not attempted again before this' }),
    stamp('sentStamp', { description: 'when it was sent' }),
    text('messageID', { description: "the SMTP server's message ID (or the .eml file's name)" }),
    text('error', { description: 'why the last attempt failed' }),
    ...stampFields(),
    field('purpose', 'preset', { list: 'deliveryPurposes', values: deliveryPurposes, description: 'the invoice itself (null or invoice), or a dunning reminder or finalNotice about it (contract 15.2)' }),
    stamp('firstAttemptStamp', { description: 'when it was first attempted: a failure is retried for 24 hours from then' }),
  ]),
  filters: [{ name: 'status', filter: { kind: 'oneOf', column: 'status', values: invoiceDeliveryStatuses }, description: 'only deliveries with this status' }],
})
