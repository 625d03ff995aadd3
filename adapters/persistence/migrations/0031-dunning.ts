import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Dunning (contract 15.2): the customer's profile, the steps taken on each invoice, and what a
 * delivery of the outbox carries (a reminder or final notice goes out as an invoice does).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0031-dunning']
  await addColumns(db, dialect, catalogue.customers, [...added.customers!])
  await addColumns(db, dialect, catalogue.invoices, [...added.invoices!])
  await addColumns(db, dialect, catalogue.invoiceDeliveries, [...added.invoiceDeliveries!])
  // The daily job reads the invoices still owed past their overdue date.
  await db.schema.createIndex('invoices_dunning_idx').on('invoices').columns(['overdueDate', 'customerID']).where(sql.ref('amountOutstanding'), '>', 0).execute()
}
