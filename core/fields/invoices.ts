import { allReadOnly, idField, stampFields } from './common.js'
import { currency, date, field, ref } from './field.js'
import { defineResource } from './resource.js'

/**
 * Invoices raised by billing runs (contract 9.5); read-only. `transactionIDs` reuses the
 * `presets` wire type (an array of strings) without a preset list: clients cannot write it, so
 * it is never checked against one.
 */
export const invoices = defineResource({
  name: 'invoices',
  singular: 'invoice',
  table: 'invoices',
  fields: allReadOnly([
    idField,
    ref('customerID', { description: 'invoiced customer' }),
    ref('billingRunID', { description: 'billing run that raised it' }),
    date('invoiceDate'),
    date('dueDate', { description: 'payment due date' }),
    currency('netAmount', { description: 'sum of the transaction amounts' }),
    currency('VATAmount', { description: 'sum of the transaction VAT amounts' }),
    currency('totalAmount', { description: 'net plus VAT' }),
    field('transactionIDs', 'presets', { description: 'IDs of the transactions on the invoice' }),
    ...stampFields(),
  ]),
})
