import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { monthPartitioned } from '../schema/month-partitions.js'

/**
 * Postgres keeps calls and the ledger as a partition per month (docs/scaling.md, "Partitioning
 * tables"): calls by the month of `startTime`, transactions by the month of `dateFrom`. Their
 * rows move into the partitioned tables, with their IDs, and IDs go on from where they were.
 * The worker makes the coming months' partitions ahead (adapters/scheduler/month-partitions-job.ts).
 * SQLite keeps plain tables: nothing to do.
 *
 * The unique indexes hold the month's column: a call's fingerprint is a digest of its record,
 * its start included, so (fingerprint, startTime) is as unique. A payment's provider reference
 * stays unique among rows without a `dateFrom` (payments have none): that index holds
 * `dateFrom`, equal when null, over the rows that have a reference. A later migration's unique
 * index on either table must hold the month's column too, and an `on conflict` must name it
 * (schema/month-partitions.ts `uniqueKey`).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  if (!dialect.partitions) return
  await dialect.partitions.partitionByMonth(db, {
    table: 'calls',
    key: monthPartitioned.calls,
    uniqueKeys: { calls_fingerprint_key: { columns: ['fingerprint', 'startTime'] } },
  })
  await dialect.partitions.partitionByMonth(db, {
    table: 'transactions',
    key: monthPartitioned.transactions,
    uniqueKeys: { transactions_provider_reference_key: { columns: ['providerReference', 'dateFrom'], presentOnly: 'providerReference' } },
  })
}
