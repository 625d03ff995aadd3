import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import { naturalKeyColumns } from '../../../core/billing/ledger-row.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** The ledger, billing runs and invoices (contract 9.2, 9.5). */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.billingRuns)
  await createResourceTable(db, dialect, catalogue.invoices)
  await createResourceTable(db, dialect, catalogue.transactions)
  // One row per (feature, kind, series, period, type, revision): a charge written twice by two
  // racing runs collides here instead of doubling (core/billing/ledger-row.ts). Manual rows have
  // a null kind and never collide.
  const key = naturalKeyColumns.map((c) => (c === 'periodStart' ? 'dateFrom' : c))
  await db.schema.createIndex('transactions_natural_key').unique().on('transactions').columns(key).execute()
  await db.schema.createIndex('transactions_customer_idx').on('transactions').columns(['customerID', 'approved', 'transactionDate']).execute()
  await db.schema.createIndex('transactions_feature_idx').on('transactions').column('featureID').execute()
  await db.schema.createIndex('transactions_number_idx').on('transactions').column('numberID').execute()
  await db.schema.createIndex('transactions_invoice_idx').on('transactions').column('invoiceID').execute()
  await db.schema.createIndex('invoices_run_customer_key').unique().on('invoices').columns(['billingRunID', 'customerID']).execute()
  await db.schema.createIndex('invoices_customer_idx').on('invoices').column('customerID').execute()
}
