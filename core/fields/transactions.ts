import { idField, ownerRef, stampFields } from './common.js'
import { currency, date, field, num, preset, ref, text } from './field.js'
import { defineResource } from './resource.js'

/**
 * The ledger (contract 9.2). Billing runs write charges; `POST /customers/<id>/transactions/`
 * adds a manual one (one-off charge, credit or payment), which may name the number, service or
 * feature it is for. `amount` is net: negative for credits, refunds and payments.
 */
export const transactions = defineResource({
  name: 'transactions',
  singular: 'transaction',
  table: 'transactions',
  fields: [
    idField,
    ownerRef('customerID', 'customer the transaction belongs to'),
    ref('numberID', { description: 'number it is for, if any' }),
    ref('serviceID', { description: 'service it is for, if any' }),
    ref('featureID', { description: 'feature it is for, if any' }),
    preset('transactionType', 'transactionTypes', { description: 'kind of transaction' }),
    text('description', { description: 'shown on invoices' }),
    date('transactionDate', { description: "date of the transaction; a recurring charge's period start" }),
    date('dateFrom', { description: 'first day of the period charged' }),
    date('dateTo', { description: 'last day of the period charged' }),
    num('quantity', { description: 'count billed (feature count)' }),
    currency('amount', { description: 'net amount; negative for credits, refunds and payments' }),
    preset('VATRate', 'vatRates', { description: "VAT rate; the feature's or customer's if unset" }),
    currency('VATAmount', { readOnly: true, description: 'VAT on the amount' }),
    field('approved', 'boolean', { readOnly: true, description: 'on an invoice of a completed billing run' }),
    ref('invoiceID', { readOnly: true, description: 'invoice it is on, once invoiced' }),
    ref('billingRunID', { readOnly: true, description: 'billing run that wrote or invoiced it' }),
    ...stampFields(),
    // A payment is its provider's and its reference (contract 15.1): two providers may both number theirs 1001.
    text('providerReference', { readOnly: true, uniqueWith: 'paymentProvider', extension: true, description: "the payment provider's reference of a payment it reported (contract 15.1); unique per paymentProvider" }),
    text('paymentProvider', { readOnly: true, extension: true, description: "the payment provider (its name in the presets' paymentProviders) that reported the payment (contract 15.1); null on other transactions, and on a payment recorded before providers were kept whose provider could not be told" }),
    // A credit note's line (contract 15.3): the note it belongs to and the invoice line it credits.
    ref('creditNoteID', { readOnly: true, extension: true, description: 'the credit note this Credit Note line belongs to' }),
    ref('creditedTransactionID', { readOnly: true, extension: true, description: 'the invoice line (transaction) a credit note line credits' }),
    // Never on the customer's documents (contract 16.2): invoices list their lines from other fields.
    currency('carrierCost', { readOnly: true, extension: true, description: "what the carrier charges for this row (contract 16.2): the feature's connectionChargeCarrier or serviceChargeCarrier × count, pro-rated, refunded and adjusted as the amount is; for Call Charges the sum of its calls' carrierCost" }),
    // The billing engine's bookkeeping (core/billing/ledger-row.ts): null on manual transactions.
    field('kind', 'text', { internal: true, readOnly: true }),
    field('series', 'number', { internal: true, readOnly: true }),
    field('revision', 'number', { internal: true, readOnly: true }),
    field('rate', 'currency', { internal: true, readOnly: true }),
    // The account code it is posted under (contract 16.4), written with the row from its feature's codes.
    field('accountCode', 'text', { internal: true, readOnly: true }),
    // Pays invoices instead of going on one: a payment, a written-off debt (contract 10.3).
    field('settles', 'boolean', { internal: true, readOnly: true }),
    // What a Call Charges row bills (core/billing/bill-calls.ts), instead of each call naming it: its
    // customer's and number's rated, undeleted calls started from callsFrom to callsTo and marked
    // below callMark, or, where a number's calls were split by VAT rate, those of callIDs only
    // (",1,2,": a list only then). Null on every other transaction.
    field('callsFrom', 'datetime', { internal: true, readOnly: true }),
    field('callsTo', 'datetime', { internal: true, readOnly: true }),
    field('callMark', 'number', { internal: true, readOnly: true }),
    field('callIDs', 'text', { internal: true, readOnly: true }),
  ],
  filters: [
    {
      name: 'transactionType',
      filter: { kind: 'equals', column: 'transactionType' },
      description: 'only transactions of that type',
    },
    {
      name: 'approved',
      filter: { kind: 'value', column: 'approved', type: 'boolean' },
      description: 'true: only approved (invoiced) transactions; false: only unapproved ones',
    },
    {
      name: 'dateFrom',
      filter: { kind: 'value', column: 'transactionDate', type: 'date-from' },
      description: 'only transactions dated on or after this date',
    },
    {
      name: 'dateTo',
      filter: { kind: 'value', column: 'transactionDate', type: 'date-to' },
      description: 'only transactions dated on or before this date',
    },
  ],
})
