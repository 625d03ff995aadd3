import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Expected spend (contract 17.7): the month a customer's spend alert was last announced, and the
 * numbers with an expected spend found without a scan, as those with a credit limit are (0013).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.customers, [...laterColumns['0026-expected-spend'].customers!])
  await db.schema.createIndex('numbers_expected_spend_idx').on('numbers').column('customerID').where(sql.ref('expectedSpend'), 'is not', null).execute()
}
