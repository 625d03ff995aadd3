import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'

/**
 * What the books' reports (contract 16.3, 16.4) look up besides the ledger's date index (0042):
 * a commission statement starts from its holder's features, not from the run's million rows; a
 * journal's payments and the credit notes a statement claws back are found by date among the
 * few rows that are such, not by reading the ledger.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('features_commission_holder_idx').on('features').column('commissionHolder').execute()
  await db.schema.createIndex('features_commission_holder2_idx').on('features').column('commissionHolderID2').execute()
  await db.schema.createIndex('customers_commission_holder_idx').on('customers').column('commissionHolder').execute()
  // A run's journal pages through its invoices by ID: a range of this index, where the run's
  // (run, customer) key made each page find and sort all of the run's invoices (bench/reports.ts).
  await db.schema.createIndex('invoices_run_id_idx').on('invoices').columns(['billingRunID', 'id']).execute()
  await db.schema.createIndex('transactions_settling_idx').on('transactions').columns(['transactionDate', 'id']).where(sql.ref('settles'), '=', 1).execute()
  await db.schema.createIndex('transactions_credit_lines_idx').on('transactions').columns(['transactionDate', 'id']).where(sql.ref('creditNoteID'), 'is not', null).execute()
}
