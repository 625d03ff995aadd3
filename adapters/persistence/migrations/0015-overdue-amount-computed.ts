import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A customer's `overdueAmount` is summed from its overdue invoices where it is read (like its
 * balance) instead of being kept on its row: 0012's column goes.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('overdueAmount').execute()
}
