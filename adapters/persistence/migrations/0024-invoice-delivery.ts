import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns, createResourceTable } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Invoices reach their customers (contract 14.1, 14.2): each invoice gains its number and the
 * date it was first sent, invoice numbers a counter, and deliveries their outbox.
 *
 * The counter is a row updated in the transaction that raises invoices, not a sequence: a
 * sequence keeps the numbers a rolled-back transaction took, and the numbers must have no gap.
 * Its row is made by the first number taken, so a new database stays empty for a restore.
 * Invoices raised before are numbered (1..N in ID order) and counted as sent at the next start,
 * with the presets' format, which this migration cannot read (`numberEarlierInvoices`); so are
 * those an archive from before this migration restores.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.invoices, [...laterColumns['0024-invoice-delivery'].invoices!])
  // No number twice, whatever a bug or a restore may try; unnumbered (earlier) invoices are null.
  await db.schema.createIndex('invoices_invoiceNumber_key').unique().on('invoices').column('invoiceNumber').execute()
  await db.schema
    .createTable('invoice_number_sequence')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last', dialect.types.bigint, (c) => c.notNull())
    .execute()
  await createResourceTable(db, dialect, catalogue.invoiceDeliveries)
  await db.schema.createIndex('invoice_deliveries_invoice_idx').on('invoice_deliveries').column('invoiceID').execute()
  await db.schema.createIndex('invoice_deliveries_due_idx').on('invoice_deliveries').columns(['status', 'nextAttemptStamp']).execute()
}
