import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * The account code each engine row is posted under (contract 16.4), written with the row, so a
 * run's journal is one grouped read of its rows by invoice, not a million feature lookups
 * (bench/reports.ts: 5.7 s for 1,000,000 features with the lookups). Rows already written take
 * their feature's codes now. The invoice index becomes a covering one of what the journal sums
 * (it still finds an invoice's rows); call charges find their number's code through a partial
 * index of the few features that set one.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.transactions, [...laterColumns['0044-account-codes'].transactions!])
  await sql`update transactions set "accountCode" = (select nullif(case when transactions.kind = 'connection' then f."connectionTransactionCode" else f."serviceTransactionCode" end, '') from features f where f.id = transactions."featureID") where kind is not null`.execute(db)
  await db.schema.dropIndex('transactions_invoice_idx').execute()
  await dialect.createCoveringIndex(db, { name: 'transactions_invoice_idx', table: 'transactions', key: 'invoiceID', covered: ['accountCode', 'transactionType', 'VATRate', 'numberID', 'amount', 'VATAmount'] })
  await db.schema.createIndex('features_calls_code_idx').on('features').columns(['numberID', 'callsTransactionCode']).where(sql.ref('callsTransactionCode'), 'is not', null).execute()
}
