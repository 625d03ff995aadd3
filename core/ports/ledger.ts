import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { Invoice, Transaction, ValuesOf } from '../fields/entity.js'
import type { Money } from '../money/money.js'

/** What a discard (`Ledger.discardDrafts`) unbilled. */
export interface DiscardedDrafts {
  /** The customers whose rows were deleted, in ID order: their balance and unbilled calls moved (a draft itself counts in neither). */
  readonly customers: string[]
  /** Each deleted `Call Charges` row's customer and the first and last start of the calls it covered. */
  readonly calls: readonly { readonly customerID: string; readonly from: Stamp; readonly to: Stamp }[]
}

/** `connection`: the one-off charge on the start date; `recurring`: everything about service charges. */
export type ChargeKind = 'connection' | 'recurring'

/**
 * A ledger row the engine wrote for a feature (rows without a `kind`, such as manual transactions,
 * are not the engine's and are not passed in). `dateFrom`/`dateTo` of the transaction are
 * `periodStart`/`periodEnd`.
 */
export interface LedgerRow {
  readonly id: string
  readonly kind: ChargeKind
  readonly series: number
  /** Distinguishes successive rows of the same natural key prefix (a period charged, refunded, charged again). */
  readonly revision: number
  readonly transactionType: string
  readonly transactionDate: DateOnly
  readonly periodStart: DateOnly
  readonly periodEnd: DateOnly
  /** Billed count of a charge; null for refunds and adjustments. */
  readonly quantity: number | null
  /** Unit price of a charge; null for refunds and adjustments. */
  readonly rate: Money | null
  /** Net, whole pence; negative for refunds. */
  readonly amount: Money
  /**
   * What the carrier charges for the same row (contract 16.2), written with the charge and
   * corrected with it: a refund carries back the cost of what it refunds, an adjustment the
   * difference. Zero where the feature has no carrier price, and on rows written before costs were kept.
   */
  readonly carrierCost: Money
  /**
   * The VAT rate name and VAT the row was written with. A refund or adjustment carries those of
   * the rows it corrects, so reconcile reads them; absent where rows are made without VAT (the
   * billing model in tests), and then a correction takes the feature's rate as a charge does.
   */
  readonly VATRate?: string | null
  readonly VATAmount?: Money
  /** On an invoice of a completed billing run: never changed or deleted again. */
  readonly approved: boolean
  /**
   * The credit note lines that gave back part of this row (contract 15.3: a credit note's lines
   * name the rows they credit), each its transaction ID, net and VAT (zero or negative): a
   * correction of the row gives back only the rest. Absent where nothing credited it.
   */
  readonly credits?: readonly LedgerCredit[]
}

/** A credit note line against an engine row (`LedgerRow.credits`). */
export interface LedgerCredit {
  readonly id: string
  readonly net: Money
  readonly vat: Money
}

/** Writes to the ledger, in bulk: the billing run writes many features' differences at once. */
export interface LedgerWrites {
  readonly inserts: readonly ValuesOf<Transaction>[]
  readonly updates: readonly { readonly id: string; readonly values: ValuesOf<Transaction> }[]
  readonly deletes: readonly string[]
  /** Every feature whose rows the writes insert, update or delete (their marks are dropped). */
  readonly features: readonly string[]
  /**
   * Features the writes reconcile, each with the mark of the inputs it was reconciled with
   * (core/billing/reconciled-mark.ts): stored instead of dropped. A writer that plans with
   * inputs of its own (a charge change, a rebill) passes none.
   */
  readonly reconciled?: ReadonlyMap<string, string>
}

/**
 * A batch's invoices as stored, and when the database has them: in a pipelined transaction
 * (`Store.pipelinedTransaction`) the writes are sent at once and answered later, so the caller
 * goes on while they are made. `written` rejects if they fail; the transaction must not commit
 * before it settles.
 */
export interface RaisedInvoices {
  readonly invoices: Invoice[]
  readonly written: Promise<void>
}

/** An unapproved transaction that an invoice may take. */
export interface Invoiceable {
  readonly id: string
  readonly customerID: string
  readonly transactionDate: string
  readonly transactionType: string | null
  /** Set on the engine's rows (`LedgerRow`), null on every other transaction. */
  readonly kind: ChargeKind | null
  readonly numberID: string | null
  readonly amount: Money
  readonly VATAmount: Money
}

/**
 * An invoice to raise: its stored values (customerID among them), its transactions already in
 * the ledger, and the rows inserted with it (indices into the inserts given `raiseInvoices`).
 * The invoice's `transactionIDs` value is filled in with every one of them.
 */
export interface NewInvoice {
  readonly values: ValuesOf<Invoice>
  readonly transactionIDs: readonly string[]
  readonly inserted: readonly number[]
}

/** The ledger as the billing engine uses it (the `transactions` resource serves the API). */
export interface Ledger {
  /** The engine's rows (kind set) of each feature, in ID order. */
  engineRows(featureIDs: readonly string[]): Promise<Map<string, LedgerRow[]>>
  /**
   * Applies the writes. A feature's mark is kept only while its engine rows are unchanged:
   * rows written for it drop the mark unless `reconciled` gives the new one. Approval by
   * `raiseInvoices` keeps marks: it approves whole slots, which leaves a reconciled ledger
   * reconciled (every unapproved engine row of a slot carries the slot's transaction date).
   */
  write(writes: LedgerWrites): Promise<void>
  /**
   * Forgets deleted features' reconciled marks: a mark is the feature's, so it goes with it
   * (a mark left behind could be read against another feature given the same ID). Their rows
   * stay. Called in the delete's transaction, as the purge does for a customer's features
   * (`CustomerRemains`).
   */
  removeFeatures(featureIDs: readonly string[]): Promise<void>
  /** Sum of amount + VAT per customer (contract 9.2's balance). */
  balances(customerIDs: readonly string[]): Promise<Map<string, Money>>
  /** Net and VAT totals of a customer's transactions. */
  totals(customerID: string): Promise<{ net: Money; vat: Money }>
  /** The latest `invoiceDate` of each customer's invoices (customers without one are absent). */
  lastInvoiceDates(customerIDs: readonly string[]): Promise<Map<string, DateOnly>>
  /** Unapproved, not invoiced transactions of the customers dated on or before `date`, by customer, in ID order; never one that settles invoices (a payment). */
  invoiceable(customerIDs: readonly string[], date: DateOnly): Promise<Map<string, Invoiceable[]>>
  /**
   * Inserts a billing run's invoices (one per customer at most) and puts their transactions on
   * them, approved: a few statements for a whole batch of customers. `inserts` are the batch's
   * new ledger rows, inserted here rather than by `write`: those an invoice takes go in approved
   * and on it, instead of being inserted and then updated; the others go in unapproved.
   * Returns the invoices as stored (their IDs and every transaction on them), as GET reads them.
   * `draft` (a run in review, contract 16.1): the transactions go on the invoices unapproved
   * (read so while the invoice is a draft, however stored: `finaliseDrafts` need not write them
   * again), and those already in the ledger keep their billing run, so a discarded draft leaves
   * them as they were.
   */
  raiseInvoices(invoices: readonly NewInvoice[], billingRunID: string, inserts?: readonly ValuesOf<Transaction>[], draft?: boolean): Promise<RaisedInvoices>
  /** Which of these drafts of a run hold transactions that do not name the run (carried forward, manual). */
  draftsCarrying(billingRunID: string, invoiceIDs: readonly string[]): Promise<Set<string>>
  /**
   * Stores the finalised values of a run's draft invoices (number, status, payment columns):
   * their transactions are then approved, and name the run (contract 16.1); `carrying` are the
   * drafts whose transactions do not all name it yet (`draftsCarrying`).
   */
  finaliseDrafts(billingRunID: string, invoices: readonly Invoice[], carrying: ReadonlySet<string>): Promise<void>
  /**
   * Removes a run's draft invoices: their transactions are taken off them, unapproved as they
   * were, except the rows the run derived (of `derivedTypes`, named by the run and of no feature:
   * its calls' `Call Charges`, the minimum charges of contract 10.4), which are deleted, on a
   * draft or not, so the calls they covered are unbilled again.
   */
  discardDrafts(billingRunID: string, derivedTypes: readonly string[]): Promise<DiscardedDrafts>
  /** How many invoices a billing run raised and their total (summed by the database, not read back). */
  runInvoiceTotals(billingRunID: string): Promise<{ amount: Money; count: number }>
}
