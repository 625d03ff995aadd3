import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

/**
 * A call records the feature whose tariff priced it (`pricingFeatureID`, an ID as the calls'
 * other references are; null when the number's or customer's tariff, or no tariff, priced it):
 * its `Call Charges` row takes that feature's `VATRateCalls` (contract 17.7). The rate was found
 * from the features at billing time, so a feature added, back-dated or dropped after rating moved
 * calls to a rate that did not price them; calls are not priced again when features change.
 *
 * Calls stored before this record nothing and cannot be told apart from calls no feature priced,
 * nor can their feature be found as rating found it (today's features are all there is). So the
 * last call stored now is marked (`unrecorded_pricing_features`, no row when there are none) and
 * billing finds such a call's feature from the features when it is billed, as it did before
 * (core/billing/call-vat-rates.ts); calls stored since never are. An unrated call stored before
 * and priced later by a number's or customer's tariff is found that way too. A restore of an
 * archive from before this marks its calls the same way (import-snapshot.ts).
 *
 * Nothing is written to the calls: the column is added empty, and an empty column costs a
 * Postgres row only its bit in the row's null bitmap.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.calls, [...laterColumns['0088-pricing-features'].calls!])
  await db.schema.createTable('unrecorded_pricing_features').addColumn('throughCallID', 'bigint', (c) => c.notNull()).execute()
  await markUnrecordedPricingFeatures(db)
}

/** Marks every call stored now as recording no pricing feature: no row when there are none. */
export async function markUnrecordedPricingFeatures(db: AnyDb): Promise<void> {
  await sql`delete from unrecorded_pricing_features`.execute(db)
  await sql`insert into unrecorded_pricing_features ("throughCallID") select max(id) from calls having count(*) > 0`.execute(db)
}
