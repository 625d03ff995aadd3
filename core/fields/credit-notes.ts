import { allReadOnly, idField, ownerRef, stampFields } from './common.js'
import { currency, date, field, ref, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * Credit notes (contract 15.3): issued against a raised invoice by `POST
 * /invoices/<id>/creditNotes/`, each line a negative `Credit Note` transaction at the credited
 * line's VAT rate. Read-only: a credit note is corrected by another document, never edited.
 */
export const creditNotes = defineResource({
  name: 'creditNotes',
  singular: 'credit note',
  table: 'credit_notes',
  fields: allReadOnly([
    idField,
    text('creditNoteNumber', { unique: true, description: 'from creditNoteNumberFormat, strictly sequential with no gap across every worker' }),
    ownerRef('customerID', 'customer credited'),
    ref('invoiceID', { description: 'invoice it credits' }),
    date('date', { description: 'date of issue' }),
    text('reason', { description: 'why it was issued' }),
    currency('netAmount', { description: 'sum of its lines, negative' }),
    currency('VATAmount', { description: 'VAT of its lines, negative' }),
    currency('totalAmount', { description: 'net plus VAT, negative' }),
    field('transactionIDs', 'presets', { description: 'IDs of its Credit Note transactions, one per credited line' }),
    // The billing run whose commission statement claws back its lines (contract 16.3): set once,
    // when the first run after it completes (core/billing/commission-credits.ts).
    field('commissionBillingRunID', 'id', { internal: true }),
    ...stampFields(),
  ]),
  filters: [
    { name: 'invoiceID', filter: { kind: 'equals', column: 'invoiceID' }, description: 'only credit notes of this invoice' },
    { name: 'creditNoteNumber', filter: { kind: 'equals', column: 'creditNoteNumber' }, description: 'the credit note with this number' },
  ],
})
