import { allReadOnly, idField, stampFields } from './common.js'
import { invoiceStatuses } from '../presets/engine-lists.js'
import { currency, date, field, preset, ref, text } from './field.js'
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
    // Payments and credit control (contract 10.3, 10.4), kept by the allocation of payments.
    currency('amountPaid', { description: 'payments and credits allocated to it' }),
    currency('amountOutstanding', { description: 'totalAmount minus amountPaid' }),
    date('paidDate', { description: 'transaction date of the payment that completed it' }),
    date('overdueDate', { description: 'dueDate plus the grace days: overdue after it while outstanding' }),
    preset('status', 'invoiceStatuses', { values: invoiceStatuses, description: 'Paid, Overdue or Unpaid; Draft on a run in review (contract 16.1)' }),
    field('suppressed', 'boolean', { description: 'a low invoice raised but not to be sent (lowInvoiceAction Suppress)' }),
    // Its document's message (contract 10.5), chosen when it is raised: the customer's next message then clears.
    preset('invoiceMessage', 'invoiceMessages', { description: "the customer's nextInvoiceMessage when it was raised, else its defaultInvoiceMessage" }),
    // Contract 14.1-14.2: the gapless number given when it is raised, and when it first reached its customer.
    text('invoiceNumber', { unique: true, description: 'from invoiceNumberFormat, strictly sequential with no gap across every worker' }),
    date('sentDate', { description: 'when its first delivery was sent (null: not sent yet)' }),
    // Contract 15.2: the dunning steps taken for it, each once, in order.
    field('dunningSteps', 'json', { description: 'dunning steps taken: [{step, afterDays, action, date, withheld?}] (step: its place from 1 in its profile when taken; afterDays and action: the step itself, taken once; withheld: regulatorProtection when a suspend or bar was left to a person)' }),
  ]),
  filters: [
    { name: 'status', filter: { kind: 'oneOf', column: 'status', values: invoiceStatuses }, description: 'only invoices with that status: Unpaid, Paid, Overdue or Draft' },
    { name: 'invoiceNumber', filter: { kind: 'equals', column: 'invoiceNumber' }, description: 'the invoice with this number' },
  ],
})
