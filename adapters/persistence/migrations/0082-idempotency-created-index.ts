import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * The purge job deletes Idempotency-Key records older than their 24 hours (a stored response
 * may hold a secret: a PIN): the index finds them, a batch at a time, without reading the table.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('createdAt').execute()
}
