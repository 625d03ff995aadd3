import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * The provider callbacks processed, by provider and Standard Webhooks `webhook-id` (contract
 * 15.1, core/ports/callback-receipts.ts). A message replayed within its signature's five
 * minutes, or sent twice at once, is the same key: the second insert finds it and does nothing.
 * Nothing differs between the databases here: text columns and a composite primary key.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('callback_receipts')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('webhookID', 'text', (c) => c.notNull())
    .addColumn('receivedStamp', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('callback_receipts_pk', ['provider', 'webhookID'])
    .execute()
}
