import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * A billing run's partitions (core/ports/run-partitions.ts): ranges of customer IDs that
 * workers claim under expiring leases (`leaseExpiresAt`, milliseconds since the epoch on the
 * claiming host), each with its progress, so several workers bill one run together.
 *
 * And two partial indexes for lists that look for few customers among many (operations views):
 * those in final bill and those with a credit alert now. Without them Postgres reads the
 * customers' ID index from the start, testing each row, until it has a page: at ten million
 * customers and a handful in final bill, the whole table (tests/persistence/postgres-plans.test.ts).
 *
 * `transactions_feature_idx` goes: the natural key's unique index starts with `featureID` and
 * serves every lookup by feature, and each index is written for each of the run's million
 * ledger rows (bench/RESULTS.md, issue 24).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await dialect
    .addIdColumn(db.schema.createTable('billing_run_partitions'))
    .addColumn('billingRunID', dialect.idRefType, (c) => c.notNull().references('billing_runs.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('afterCustomerID', dialect.idRefType, (c) => c.notNull())
    .addColumn('lastCustomerID', dialect.idRefType)
    .addColumn('progressCustomerID', dialect.idRefType, (c) => c.notNull())
    .addColumn('customersTotal', 'integer', (c) => c.notNull())
    .addColumn('customersDone', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invoiceCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('holder', 'text')
    .addColumn('leaseExpiresAt', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute()
  // A claim reads the run's partitions in ID order; totals read them all.
  await db.schema.createIndex('billing_run_partitions_run_idx').on('billing_run_partitions').columns(['billingRunID', 'id']).execute()
  await db.schema.createIndex('customers_final_bill_idx').on('customers').column('id').where(sql.ref('isFinalBill'), '=', 1).execute()
  await db.schema
    .createIndex('customers_credit_alert_idx')
    .on('customers')
    .column('id')
    .where((eb) => eb.and([eb(sql.ref('creditAlerts'), 'is not', null), eb(sql.ref('creditAlerts'), '<>', sql.lit('[]'))]))
    .execute()
  await db.schema.dropIndex('transactions_feature_idx').execute()
}
