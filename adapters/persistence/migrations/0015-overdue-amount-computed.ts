import type { Kysely } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A customer's `overdueAmount` is summed from its overdue invoices where it is read (like its
 * balance) instead of being kept on its row: 0012's column goes.
 */
export async function up(db: Kysely<any>, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('overdueAmount').execute()
}
