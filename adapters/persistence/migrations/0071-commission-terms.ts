import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { keepCommissionTerms, TERM_MONEY, TERM_TEXT } from '../reports/commission-terms.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * The commission terms a completed run's rows earned on (contract 16.3, reports/commission-terms.ts):
 * a row per row of its invoices that may earn, with the feature's and customer's terms, kept as the
 * run completes. Statements read them from the features as they are now before, so a changed
 * rate or holder changed a completed run's statement, and a credit note clawed back at today's
 * rate. Runs completed already are given today's terms: nothing better is known of them.
 *
 * Looked up by run and holder (primary or secondary) for a statement, by row for a clawback.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  let table = db.schema
    .createTable('commission_terms')
    .addColumn('billingRunID', 'bigint', (c) => c.notNull())
    .addColumn('transactionID', 'bigint', (c) => c.notNull())
    .addColumn('featureID', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('customerID', 'bigint', (c) => c.notNull())
    .addColumn('accountNumber', 'text')
    .addColumn('customerHolder', 'text')
    .addColumn('commissionReferenceDate', 'text')
    .addColumn('saleType', 'text')
    .addColumn('holder', 'text')
  for (const c of TERM_TEXT) table = table.addColumn(c, 'text')
  for (const c of TERM_MONEY) table = table.addColumn(c, 'bigint')
  await table.execute()
  await db.schema.createIndex('commission_terms_holder_idx').on('commission_terms').columns(['billingRunID', 'holder', 'transactionID']).execute()
  await db.schema.createIndex('commission_terms_holder2_idx').on('commission_terms').columns(['billingRunID', 'commissionHolderID2', 'transactionID']).execute()
  await db.schema.createIndex('commission_terms_transaction_idx').on('commission_terms').column('transactionID').execute()
  await keepCommissionTerms(db, sql<boolean>`i."billingRunID" in (select r.id from billing_runs r where r.status = 'Complete')`)
}
