import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/**
 * Carriers' bills and their lines (contract 17.4). A reconciliation reads the carrier's features
 * active in the month: the index on `carrier` keeps that to the carrier's own, whatever the
 * number of features of other carriers.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.carrierBills)
  await createResourceTable(db, dialect, catalogue.carrierBillLines, { carrierBillID: 'carrier_bills.id' })
  await db.schema.createIndex('features_carrier_idx').on('features').columns(['carrier', 'id']).execute()
  // The reconciliation reads a bill's rows (of one outcome, or all) a page at a time in ID order:
  // these give each page as a range. Before them a 40,000-line bill's 204,000 rows took 37 s to
  // list at load 12 (bench/carrier-bills.ts).
  await db.schema.createIndex('carrier_bill_lines_outcome_idx').on('carrier_bill_lines').columns(['carrierBillID', 'outcome', 'id']).execute()
  await db.schema.createIndex('carrier_bill_lines_bill_id_idx').on('carrier_bill_lines').columns(['carrierBillID', 'id']).execute()
}
