import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/** Credit alerts on customers (contract 10.6), and the numbers with a credit limit found without a scan. */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.customers, [...laterColumns['0013-credit-alerts'].customers!])
  await sql`update customers set ${sql.ref('creditAlerts')} = '[]'`.execute(db)
  // Billing runs look for numbers with a credit limit in every batch: few numbers have one.
  await db.schema.createIndex('numbers_credit_limit_idx').on('numbers').column('customerID').where(sql.ref('creditLimit'), 'is not', null).execute()
}
