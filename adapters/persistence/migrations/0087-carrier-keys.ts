import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A usage record's key holds its carrier as carriers' names are compared (trimmed, lower-cased:
 * core/rating/usage-fingerprint.ts); imports before this held it as spelt. Those keys cannot be
 * made again (a call keeps neither the record's `externalID` nor its band as the file sent it),
 * so the last call stored now is marked (`spelt_carrier_keys`, no row when there are none) and
 * imports look for a record's spelt key among calls up to it (`speltCarrierKeys` in core/rating/older-keys.ts); an
 * install begun since never looks. A restore of an archive from before this migration marks its
 * calls the same way (import-snapshot.ts).
 *
 * `external_call_keys`: the key of each call keyed by its carrier's record ID, claimed as it is
 * stored where calls are partitioned by month (Postgres, call-key-claims.ts): their unique index
 * holds the start, which such a key does not. Not partitioned, the key alone its primary key.
 * SQLite has it too, empty (its calls' `fingerprint` is unique on its own), so archives load
 * into either database.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.createTable('spelt_carrier_keys').addColumn('throughCallID', 'bigint', (c) => c.notNull()).execute()
  await db.schema.createTable('external_call_keys').addColumn('fingerprint', 'text', (c) => c.notNull().primaryKey()).execute()
  await markSpeltCarrierKeys(db)
}

/** Marks every call stored now as possibly keyed by its carrier as spelt (or claiming no key): no row when there are none. */
export async function markSpeltCarrierKeys(db: AnyDb): Promise<void> {
  await sql`delete from spelt_carrier_keys`.execute(db)
  await sql`insert into spelt_carrier_keys ("throughCallID") select max(id) from calls having count(*) > 0`.execute(db)
}
