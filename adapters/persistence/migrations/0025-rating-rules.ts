import { sql } from 'kysely'
import { callClasses } from '../../../core/fields/call-classes.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * The partial index's condition, parenthesised to stand as one term of a query's: a feature on a
 * number or customer that names a call tariff for some class (contract 17.7).
 */
export const namesCallTariff = sql.raw<boolean>(`("serviceID" is null and (${callClasses.map((c) => `"${c.tariff}" is not null`).join(' or ')}))`)

/**
 * Rating rules the tariff and feature fields carry (contract 17.7): each batch of records reads
 * its customers' features that name a call tariff, by customer, from this partial index and not
 * from every feature they have.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('features_call_tariff_idx').on('features').column('customerID').where(namesCallTariff).execute()
}
