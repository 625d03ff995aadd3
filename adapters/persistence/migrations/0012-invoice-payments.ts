import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Payments pay invoices (contract 10.3): an invoice's paid and outstanding amounts, overdue date
 * and status; a customer's overdue amount and credit held for its next invoice; which
 * transactions settle invoices rather than go on them; and what was allocated where.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0012-invoice-payments']
  await addColumns(db, dialect, catalogue.invoices, [...added.invoices!])
  await addColumns(db, dialect, catalogue.customers, [...added.customers!])
  await addColumns(db, dialect, catalogue.transactions, [...added.transactions!])
  // Invoices raised before: nothing allocated yet (payments on them were lines), overdue from the due date.
  await sql`update invoices set ${sql.ref('amountPaid')} = 0, ${sql.ref('amountOutstanding')} = ${sql.ref('totalAmount')}, ${sql.ref('overdueDate')} = ${sql.ref('dueDate')},
    status = case when ${sql.ref('totalAmount')} <= 0 then 'Paid' else 'Unpaid' end`.execute(db)
  await sql`update customers set ${sql.ref('overdueAmount')} = 0, ${sql.ref('heldCredit')} = 0`.execute(db)
  await sql`update transactions set settles = 1 where ${sql.ref('transactionType')} = 'Payment' and ${sql.ref('invoiceID')} is null`.execute(db)
  // Billing runs look for numbers with a call-charge minimum in every batch: few numbers have one.
  await db.schema
    .createIndex('numbers_call_minimum_idx')
    .on('numbers')
    .column('customerID')
    .where(sql.ref('lowInvoiceActionValue'), 'is not', null)
    .execute()
  await db.schema.createIndex('invoices_status_overdue_idx').on('invoices').columns(['status', 'overdueDate']).execute()
  await db.schema
    .createTable('invoice_allocations')
    .addColumn('invoiceID', dialect.idRefType, (c) => c.notNull())
    .addColumn('customerID', dialect.idRefType, (c) => c.notNull())
    .addColumn('transactionID', dialect.idRefType)
    .addColumn('creditInvoiceID', dialect.idRefType)
    .addColumn('amount', dialect.types.bigint, (c) => c.notNull())
    .addColumn('allocatedDate', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('invoice_allocations_invoice_idx').on('invoice_allocations').column('invoiceID').execute()
  await db.schema.createIndex('invoice_allocations_customer_idx').on('invoice_allocations').column('customerID').execute()
}
