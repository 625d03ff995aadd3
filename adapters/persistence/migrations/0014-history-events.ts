import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** History entries, the events outbox, webhooks and their deliveries (contract 12). */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.history)
  await db.schema.createIndex('history_resource_idx').on('history').columns(['resource', 'resourceID']).execute()
  await db.schema.createIndex('history_customer_idx').on('history').column('customerID').execute()
  await createResourceTable(db, dialect, catalogue.events)
  await createResourceTable(db, dialect, catalogue.webhooks)
  await createResourceTable(db, dialect, catalogue.webhookDeliveries)
  // One delivery per event and webhook: a second worker's copy collides instead of sending twice.
  await db.schema.createIndex('webhook_deliveries_key').unique().on('webhook_deliveries').columns(['webhookID', 'eventID']).execute()
  await db.schema.createIndex('webhook_deliveries_pending_idx').on('webhook_deliveries').columns(['status', 'webhookID', 'eventID']).execute()
}
