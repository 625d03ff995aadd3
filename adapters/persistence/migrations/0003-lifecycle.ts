import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/** Lifecycle events (billing replays them) and ignore-traffic entries from number drops (rating reads them). */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await dialect
    .addIdColumn(db.schema.createTable('lifecycle_events') as any)
    .addColumn('customerID', dialect.idRefType, (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('itemId', dialect.idRefType, (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('stamp', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('lifecycle_events_item_idx').on('lifecycle_events').columns(['level', 'itemId']).execute()
  await db.schema.createIndex('lifecycle_events_customer_idx').on('lifecycle_events').column('customerID').execute()
  await dialect
    .addIdColumn(db.schema.createTable('ignore_traffic') as any)
    .addColumn('customerID', dialect.idRefType, (c) => c.notNull())
    .addColumn('numberID', dialect.idRefType, (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('fromDate', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('ignore_traffic_customer_idx').on('ignore_traffic').column('customerID').execute()
}
