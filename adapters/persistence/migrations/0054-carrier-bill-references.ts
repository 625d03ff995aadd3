import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A carrier bill's lines by reference: a reconciliation matches a page of 5,000 features against
 * the stored lines of their references (core/carrier-bills/feature-matches.ts), one look-up each
 * in this index, instead of holding the bill's lines in memory (bench/carrier-bills.ts).
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.createIndex('carrier_bill_lines_reference_idx').on('carrier_bill_lines').columns(['carrierBillID', 'reference']).execute()
}
