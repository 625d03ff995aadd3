import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

/**
 * Which numbers were over their own `creditLimit` at the last measure (`overCreditLimit`,
 * core/credit/credit-alerts.ts), so that each number passing it is barred once (contract 15.2),
 * not only the first while its customer's `numberCreditLimit` alert stays raised.
 *
 * Backfilled as the engine acted so far: a customer whose alert is raised has had its numbers over
 * then acted on, so every number with a limit of such a customer is marked (the next measure clears
 * those under theirs); none is barred a second time by the upgrade, nor by a restore of an
 * archive from before this (import-snapshot.ts). Marked numbers are read with those that have a
 * limit: a partial index finds the few (a limit removed since leaves one marked without).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.numbers, [...laterColumns['0083-numbers-over-credit-limit'].numbers!])
  await markNumbersOver(db)
  await db.schema.createIndex('numbers_over_credit_limit_idx').on('numbers').column('customerID').where(sql.ref('overCreditLimit'), '=', 1).execute()
}

/** Marks over its limit every number with one whose customer's `numberCreditLimit` alert is raised. */
export async function markNumbersOver(db: AnyDb): Promise<void> {
  // Flags are stored as integers on every dialect (schema/columns.ts); alerts as JSON text.
  await sql`update numbers set "overCreditLimit" = 1 where "creditLimit" is not null
    and "customerID" in (select id from customers where "creditAlerts" like '%"numberCreditLimit"%')`.execute(db)
}
