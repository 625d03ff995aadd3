import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'
import { CUSTOMER_LOOKUP_COLUMNS } from './0020-rating-lookup-indexes.js'

/**
 * Expected spend (contract 17.7): the month a customer's spend alert was last announced, and the
 * numbers with an expected spend found without a scan, as those with a credit limit are (0013).
 * An import's number lookup now asks whether a customer has an expected spend (`creditWatched`):
 * its covering index (0020) holds that column too, or each customer's row would be read again.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.customers, [...laterColumns['0027-expected-spend'].customers!])
  await db.schema.dropIndex('customers_lookup_idx').execute()
  await dialect.createCoveringIndex(db, { name: 'customers_lookup_idx', table: 'customers', key: 'id', covered: [...CUSTOMER_LOOKUP_COLUMNS, 'expectedSpend'] })
  await db.schema.createIndex('numbers_expected_spend_idx').on('numbers').column('customerID').where(sql.ref('expectedSpend'), 'is not', null).execute()
}
