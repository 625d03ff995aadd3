import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns, createResourceTable } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Credit notes (contract 15.3): their table, and on the ledger the note a `Credit Note` line
 * belongs to and the invoice line it credits. Their numbers share the invoice number counter's
 * table (a row of their own), so no table is needed for them.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.creditNotes)
  await db.schema.createIndex('credit_notes_invoice_idx').on('credit_notes').column('invoiceID').execute()
  await db.schema.createIndex('credit_notes_customer_idx').on('credit_notes').column('customerID').execute()
  await addColumns(db, dialect, catalogue.transactions, [...laterColumns['0030-credit-notes'].transactions!])
  // What a line has been credited is summed on every credit note of its invoice.
  await db.schema.createIndex('transactions_credited_idx').on('transactions').column('creditedTransactionID').execute()
}
