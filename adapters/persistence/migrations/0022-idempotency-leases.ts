import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * An Idempotency-Key's claim becomes a lease: its `owner` (a random token of the claiming
 * request) renews `leaseUntil` while the request runs. A request killed mid-way left its key
 * pending for the 24 hours of the record, every retry refused 409004 with nothing stored;
 * now a retry after the lease lapses runs again. Rows claimed before have no lease: lapsed.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute()
  await db.schema.alterTable('idempotency_keys').addColumn('leaseUntil', dialect.types.bigint).execute()
}
