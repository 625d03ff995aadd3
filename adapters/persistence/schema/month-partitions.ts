import type { DatabaseDialect } from '../dialect/dialect.js'
import type { MonthKey } from '../dialect/partitions.js'

/**
 * The tables Postgres keeps as a partition per month, each by the month of the column named
 * (docs/scaling.md, "Partitioning tables"): calls by their start, the ledger by the first day
 * its rows charge for. SQLite keeps them plain (`DatabaseDialect.partitions` is null).
 */
export const monthPartitioned = {
  calls: { column: 'startTime', stamps: true },
  transactions: { column: 'dateFrom', stamps: false },
} as const satisfies Record<string, MonthKey>

export type MonthPartitionedTable = keyof typeof monthPartitioned

/**
 * A unique key's columns as the table's unique index holds them: with the partition key where
 * the table is partitioned (each partition's index checks its own rows), for `on conflict`
 * targets, which must name an index's columns exactly.
 */
export function uniqueKey(dialect: DatabaseDialect, table: MonthPartitionedTable, columns: readonly string[]): readonly string[] {
  const key = monthPartitioned[table].column
  return dialect.partitions && !columns.includes(key) ? [...columns, key] : columns
}
