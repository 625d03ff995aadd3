import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * The last call stored before a call's duplicate key was of the record as read (contract 9.6,
 * `lookedUpKeys` in core/rating/older-keys.ts): imports before this keyed a record whose band or class
 * the destination table gave by what the table gave. Only calls up to this ID can hold such a
 * key, so a database that had none (no row: an empty database stays empty for a restore) never
 * looks for one, and an import pays for the look only while it can find something. A restore of
 * an archive from before this migration marks its calls the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.createTable('old_call_keys').addColumn('throughCallID', 'bigint', (c) => c.notNull()).execute()
  await markOldCallKeys(db)
}

/** Marks the calls stored now as keyed the old way: no row when there are none. */
export async function markOldCallKeys(db: AnyDb): Promise<void> {
  await sql`insert into old_call_keys ("throughCallID") select max(id) from calls having count(*) > 0`.execute(db)
}
