import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

/**
 * What a reinstate leaves behind (contract 5.5; core/lifecycle/drop-gaps.ts, core/lifecycle/cascade.ts).
 *
 * A feature keeps the stretches between a drop's bill-to date and its reinstate (`dropGaps`): its
 * charges skip them and start again on the reinstate's date. Features reinstated before keep
 * none, so their charges stay as they were.
 *
 * An ignore-traffic entry ends on the day its number is reinstated (`reinstatedDate`). Entries of
 * numbers that are live now were made by a drop their number has since been reinstated from: they
 * end on the date of that reinstate (the number's `updatedDate`, the date of its last drop or
 * reinstate). Entries of numbers still dropped, or gone, stay open. A restore of an archive from
 * before this ends its entries the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.features, [...laterColumns['0070-reinstate-gaps'].features!])
  await db.schema.alterTable('ignore_traffic').addColumn('reinstatedDate', 'text').execute()
  await endReinstatedIgnores(db)
}

/** Ends each open ignore-traffic entry of a number live now on the date of its reinstate (its `updatedDate`). */
export async function endReinstatedIgnores(db: AnyDb): Promise<void> {
  // Flags are stored as integers on every dialect (schema/columns.ts).
  await sql`update ignore_traffic set "reinstatedDate" = (
      select n."updatedDate" from numbers n where n.id = ignore_traffic."numberID" and n."isDropped" = 0)
    where "reinstatedDate" is null`.execute(db)
}
