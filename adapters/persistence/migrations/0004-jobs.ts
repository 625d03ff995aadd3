import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** Job leases: which process runs which job until when. */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .execute()
}
