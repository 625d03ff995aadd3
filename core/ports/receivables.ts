import type { AccountAllocation, AccountInvoice, KeptAllocation, Settlement } from '../billing/allocation.js'
import type { NumberMinimum } from '../billing/raise-invoices.js'
import type { InvoiceStatus } from '../presets/engine-lists.js'
import type { Money } from '../money/money.js'
import type { DateOnly } from '../dates/date-only.js'

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
   * The numbers with a call-charge minimum (`lowInvoiceActionValue`), not dropped, of the
   * customers with IDs from `firstCustomerID` to `lastCustomerID` (a billing run's batch).
   */
  numberMinimums(firstCustomerID: string, lastCustomerID: string): Promise<NumberMinimum[]>
  /** Whether any number has a call-charge minimum (a run reads them per batch only then). */
  anyNumberMinimums(): Promise<boolean>
  /** Customers with an unpaid invoice whose overdue date is before `today` (it has just become overdue). */
  newlyOverdue(today: DateOnly, limit: number): Promise<string[]>
}
