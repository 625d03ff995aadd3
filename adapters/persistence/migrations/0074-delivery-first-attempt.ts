import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

/**
 * An invoice delivery keeps when it was first attempted (`firstAttemptStamp`, contract 14.2): its
 * 24 hours of retries count from then, not from when it was recorded, so a delivery first tried
 * a day late (the worker or the mail server down) is still retried (core/delivery/deliver-invoices.ts).
 *
 * Deliveries attempted before: one attempt ended when the row was last updated, so that is when it
 * was made; of several, only the first's earliest time is known, the delivery's recording, which
 * is what their retries counted from until now.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.invoiceDeliveries, [...laterColumns['0074-delivery-first-attempt'].invoiceDeliveries!])
  await sql`update invoice_deliveries
    set "firstAttemptStamp" = case when attempts = 1 then "updatedStamp" else "createdStamp" end
    where attempts > 0`.execute(db)
}
