import type { LedgerRow } from '../billing/ledger-row.js'
import type { Values } from '../fields/item.js'
import type { Money } from '../money/money.js'

/** Writes to the ledger, in bulk: the billing run writes many features' differences at once. */
export interface LedgerWrites {
  readonly inserts: readonly Values[]
  readonly updates: readonly { readonly id: string; readonly values: Values }[]
  readonly deletes: readonly string[]
}

/** An unapproved transaction that an invoice may take. */
export interface Invoiceable {
  readonly id: string
  readonly amount: Money
  readonly VATAmount: Money
}

/** The ledger as the billing engine uses it (the `transactions` resource serves the API). */
export interface Ledger {
  /** The engine's rows (kind set) of each feature, in ID order. */
  engineRows(featureIDs: readonly string[]): Promise<Map<string, LedgerRow[]>>
  write(writes: LedgerWrites): Promise<void>
  /** Sum of amount + VAT per customer (contract 9.2's balance). */
  balances(customerIDs: readonly string[]): Promise<Map<string, Money>>
  /** Net and VAT totals of a customer's transactions. */
  totals(customerID: string): Promise<{ net: Money; vat: Money }>
  /** Unapproved, not invoiced transactions of a customer dated on or before `date`. */
  invoiceable(customerID: string, date: string): Promise<Invoiceable[]>
  /** Puts transactions on an invoice and approves them. */
  markInvoiced(ids: readonly string[], invoiceID: string, billingRunID: string): Promise<void>
}
