import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * A journal's account (contract 16.4: the customer's `accountingID`, else its account number)
 * looked up once an invoice from a narrow index, not from the customer's row of 150 columns,
 * where the two sit near its end (a run's journal looks up 200,000: bench/reports.ts). Read
 * through it by `ReadsDialect.throughIndex`.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await dialect.createCoveringIndex(db, { name: 'customers_account_idx', table: 'customers', key: 'id', covered: ['accountingID', 'accountNumber'] })
}
