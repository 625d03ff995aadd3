import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { CreateTableBuilder } from 'kysely'

/** Portal sessions, by the digest of their token, and failed sign-ins, by login (contract 14.3). */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('portal_sessions')
    .addColumn('tokenHash', 'text', (c) => c.primaryKey())
    .addColumn('customerID', 'text')
    .addColumn('contactID', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('csrfToken', 'text', (c) => c.notNull())
    .addColumn('createdStamp', 'text', (c) => c.notNull())
    .addColumn('lastSeenStamp', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('portal_sessions_seen_idx').on('portal_sessions').column('lastSeenStamp').execute()
  await dialect
    .addIdColumn(db.schema.createTable('portal_login_failures') as CreateTableBuilder<string, never>)
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('portal_login_failures_idx').on('portal_login_failures').columns(['login', 'stamp']).execute()
}
