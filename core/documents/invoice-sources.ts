import { notFound } from '../errors.js'
import type { Call, Customer, Feature, Invoice, Service, TelephoneNumber, Transaction } from '../fields/entity.js'
import type { InvoicePaymentLine } from '../ports/receivables.js'
import type { Store } from '../ports/store.js'

/** What an invoice document is made from: plain data, read by `readInvoiceSources` or given by a caller. */
export interface InvoiceSources {
  readonly invoice: Invoice
  readonly customer: Customer
  /** The transactions on the invoice. */
  readonly transactions: readonly Transaction[]
  /** The features its transactions charge (with their `site`, for a grouping `billFormatOverride`). */
  readonly features: readonly (Pick<Feature, 'id' | 'description' | 'featureType'> & Sited)[]
  /** The customer's numbers (for their `displayWith`, `site` and page lists) and services. */
  readonly numbers: readonly (Pick<TelephoneNumber, 'id' | 'number' | 'description' | 'displayWith' | 'shortBillPages' | 'longBillPages'> & Sited)[]
  readonly services: readonly (Pick<Service, 'id' | 'serviceName' | 'serviceType' | 'description'> & Sited)[]
  /** The calls its `Call Charges` transactions billed (deleted ones left out). */
  readonly calls: readonly DocumentCall[]
  /** What pays it, with the payment or credit transaction when it is one. */
  readonly payments: readonly { readonly line: InvoicePaymentLine; readonly transaction: Pick<Transaction, 'transactionType' | 'description'> | null }[]
}

/** A `site`, which only grouping by site reads (bill-format.ts); sources made without one have none. */
export interface Sited {
  readonly site?: string | null
}

/** A call as a document shows it. */
export type DocumentCall = Pick<
  Call,
  'id' | 'numberID' | 'transactionID' | 'startTime' | 'dialledNumber' | 'callType' | 'chargeBand' | 'durationSeconds' | 'ratedDuration' | 'cost'
>

const CALL_CHARGES = 'Call Charges'

/** Reads what the invoice's document shows, through the store's ports (404 for an unknown invoice). */
export async function readInvoiceSources(store: Store, invoiceID: string): Promise<InvoiceSources> {
  const invoice = await store.repository('invoices').get(invoiceID)
  if (!invoice) throw notFound('invoice', invoiceID)
  const customerID = invoice.customerID!
  const [customer, transactions, numbers, services, paidBy] = await Promise.all([
    store.repository('customers').get(customerID),
    store.repository('transactions').listIn('invoiceID', [invoice.id]),
    store.repository('numbers').listIn('customerID', [customerID], [], { storedOnly: true }),
    store.repository('services').listIn('customerID', [customerID], [], { storedOnly: true }),
    store.receivables.invoicePayments(invoice.id),
  ])
  if (!customer) throw notFound('customer', customerID)
  const featureIDs = unique(transactions.map((t) => t.featureID))
  const callCharges = transactions.filter((t) => t.transactionType === CALL_CHARGES).map((t) => t.id)
  const paymentIDs = unique(paidBy.map((p) => p.transactionID))
  const [features, calls, paying] = await Promise.all([
    featureIDs.length ? store.repository('features').listIn('id', featureIDs, [], { storedOnly: true }) : [],
    callCharges.length ? store.repository('calls').listIn('transactionID', callCharges, [{ op: 'eq', column: 'deleted', value: false }]) : [],
    paymentIDs.length ? store.repository('transactions').listIn('id', paymentIDs) : [],
  ])
  const byID = new Map(paying.map((t) => [t.id, t]))
  return {
    invoice,
    customer,
    transactions,
    features,
    numbers,
    services,
    calls,
    payments: paidBy.map((line) => ({ line, transaction: (line.transactionID && byID.get(line.transactionID)) || null })),
  }
}

const unique = (ids: readonly (string | null)[]): string[] => [...new Set(ids.filter((id): id is string => id !== null))]
