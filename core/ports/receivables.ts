import type { InvoiceStatus } from '../presets/engine-lists.js'
import type { Money } from '../money/money.js'
import type { DateOnly } from '../dates/date-only.js'

/** A number's call-charge minimum (`Receivables.numberMinimums`). */
export interface NumberMinimum {
  readonly id: string
  readonly customerID: string
  readonly value: Money
  /** The number's own `VATRateCalls` (null when unset): its top-up's rate, as its calls' (contract 17.7). */
  readonly VATRateCalls: string | null
}

/** An invoice of a customer as allocation sees it. */
export interface AccountInvoice {
  readonly id: string
  readonly invoiceDate: DateOnly
  readonly dueDate: DateOnly
  readonly overdueDate: DateOnly
  readonly totalAmount: Money
  /** Its VAT: a credit invoice's credit carries its share of it (a write-off's VAT, contract 17.6). */
  readonly VATAmount?: Money
}

/**
 * Money that pays invoices: a payment, written-off debt or credit note line (a transaction), or a
 * credit invoice's credit; or, below zero, money paid back out of what is held (a refund).
 */
export interface Settlement {
  readonly kind: 'transaction' | 'invoice'
  readonly id: string
  readonly date: DateOnly
  /** What it pays, above zero; a refund's is below zero (what it takes back). */
  readonly amount: Money
  /** The VAT within `amount` (a credit note's, a credit invoice's); none for money paid in. */
  readonly vat?: Money
  /** The invoice it pays first (a credit note's, contract 15.3), before the rest of 10.3's order. */
  readonly invoiceID?: string
}

/** One piece of a settlement allocated to an invoice. */
export interface Allocation {
  readonly invoiceID: string
  readonly source: Settlement
  readonly amount: Money
}

/** An allocation made before, as stored: its source by kind and ID. */
export interface KeptAllocation {
  readonly invoiceID: string
  readonly source: { readonly kind: Settlement['kind']; readonly id: string }
  readonly amount: Money
}

/** Where each invoice stands after allocation. */
export interface InvoicePayment {
  readonly amountPaid: Money
  readonly amountOutstanding: Money
  readonly paidDate: DateOnly | null
  readonly status: InvoiceStatus
}

export interface AccountAllocation {
  readonly allocations: readonly Allocation[]
  readonly invoices: ReadonlyMap<string, InvoicePayment>
  /** Settlements not allocated: held for the next invoice raised. */
  readonly held: Money
  /** What is held, by the settlement it is left of (the latest ones, in allocation order). */
  readonly heldFrom: readonly { readonly source: Settlement; readonly amount: Money }[]
}

/** An invoice with what is stored of its payment now. */
export interface StoredInvoice extends AccountInvoice {
  readonly amountPaid: Money
  readonly paidDate: DateOnly | null
  readonly status: InvoiceStatus | null
}

/** One allocation to an invoice. */
export interface InvoicePaymentLine {
  readonly transactionID: string | null
  readonly creditInvoiceID: string | null
  readonly amount: Money
  readonly date: DateOnly
}

/** A customer's invoices and the money that pays them. */
export interface Account {
  readonly invoices: readonly StoredInvoice[]
  readonly settlements: readonly Settlement[]
  /** What is allocated now: it stays (contract 17.6). */
  readonly allocations: readonly KeptAllocation[]
}

/** The accounts receivable side of the ledger: invoices' payments (contract 10.3). */
export interface Receivables {
  /** Each customer's invoices and settlements (payments, written-off debts). */
  accounts(customerIDs: readonly string[]): Promise<Map<string, Account>>
  /** The credit each customer holds for its next invoice (contract 10.3): zero for one that holds none. */
  heldCredits(customerIDs: readonly string[]): Promise<Map<string, Money>>
  /**
   * Stores customers' allocations: replaces their allocation rows, sets their invoices' paid and
   * outstanding amounts, paid dates and statuses where they changed, and their held credit.
   */
  saveAllocations(entries: readonly { readonly customerID: string; readonly allocation: AccountAllocation; readonly before: Account }[], now: string): Promise<void>
  /**
   * What pays an invoice, in allocation order: each payment or written-off debt (`transactionID`)
   * or credit invoice (`creditInvoiceID`) with the amount of it allocated to this invoice and its date
   * (an invoice document's Payments page, contract 10.5).
   */
  invoicePayments(invoiceID: string): Promise<InvoicePaymentLine[]>
  /**
   * The numbers with a call-charge minimum (`lowInvoiceActionValue`) of the customers with IDs
   * from `firstCustomerID` to `lastCustomerID` (a billing run's batch), dropped or not: whether
   * one was active on the run's cutoff is the run's to say, from its lifecycle history.
   */
  numberMinimums(firstCustomerID: string, lastCustomerID: string): Promise<NumberMinimum[]>
  /** Whether any number has a call-charge minimum (a run reads them per batch only then). */
  anyNumberMinimums(): Promise<boolean>
  /** Customers with an unpaid invoice whose overdue date is before `today` (it has just become overdue). */
  newlyOverdue(today: DateOnly, limit: number): Promise<string[]>
}
