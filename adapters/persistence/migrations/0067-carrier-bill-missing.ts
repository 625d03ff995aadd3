import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * The features no line of a carrier's bill matched (contract 17.4 `notOnCarrierBill`), stored
 * when the bill is posted so that its list is the count it stored, whatever happens to the
 * features later. Most of a carrier's features are in it for every bill (nine in ten of the
 * bench's 1,000,000), so the table is narrow with its key for only index: written as the
 * bill's lines, with their four indexes, it made a posting half as long again (bench/RESULTS.md).
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('carrier_bill_missing')
    .addColumn('carrierBillID', 'bigint', (c) => c.notNull())
    .addColumn('featureID', 'bigint', (c) => c.notNull())
    .addColumn('expectedCost', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('carrier_bill_missing_pk', ['carrierBillID', 'featureID'])
    .execute()
}
