import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Automatic top-ups (core/credit/auto-topups.ts): the date the `auto-topup` job asked for a
 * customer's top-up (`autoTopupRequestedDate`), so that it asks once while the customer's funds
 * stay below its threshold. Nothing is backfilled: nobody has been asked yet. The job reads the
 * customers with a profile, and those it asked, every 15 minutes: few customers are either, so
 * each is found on a partial index of its own rather than by reading the whole table.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.customers, [...laterColumns['0080-auto-topup-requests'].customers!])
  await db.schema.createIndex('customers_auto_topup_idx').on('customers').column('id').where(sql.ref('autoTopupProfile'), 'is not', null).execute()
  await db.schema.createIndex('customers_topup_requested_idx').on('customers').column('id').where(sql.ref('autoTopupRequestedDate'), 'is not', null).execute()
}
