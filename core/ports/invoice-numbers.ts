import type { DateOnly } from '../dates/date-only.js'

/** The documents numbered gaplessly, each with a sequence of its own. */
export type NumberCounter = 'invoices' | 'creditNotes'

/**
 * The invoice number counter (contract 14.1). Numbers are taken in the transaction that raises
 * the invoices, so a transaction that rolls back gives its numbers back: no gap, no repeat, across
 * every worker and process (the counter stays locked to other writers until the commit).
 */
export interface InvoiceNumbers {
  /**
   * The first of `count` consecutive sequence numbers (1, 2, ... over the platform's life) of a
   * counter, now this transaction's: invoices' (the default) or credit notes' (contract 15.3).
   */
  take(count: number, counter?: NumberCounter): Promise<bigint>
  /** Invoices raised before numbers existed (none have been since), in ID order. */
  unnumbered(): Promise<{ id: string; invoiceDate: DateOnly }[]>
  /** Gives earlier invoices their numbers; each counts as sent on its invoice date (it went out before the platform sent any). */
  assignEarlier(numbers: readonly { id: string; invoiceNumber: string }[]): Promise<void>
}
