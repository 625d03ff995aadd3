import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * A customer's portal closed ends the sessions signed in to it even when it is opened again
 * before their next request (contract 14.3, core/portal/portal-opening.ts): the customer counts
 * its portal's openings (`portalOpening`, moved on by each close), and a session keeps the
 * opening of each customer it signed in to (`portalOpenings`, JSON by customer ID). Nothing is
 * backfilled: no stored opening reads as the first, for customers and sessions alike, so every
 * session from before holds as it did while the portal it signed in to stays open, and ends at
 * the first close.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.customers, [...laterColumns['0078-portal-openings'].customers!])
  await db.schema.alterTable('portal_sessions').addColumn('portalOpenings', 'text').execute()
}
