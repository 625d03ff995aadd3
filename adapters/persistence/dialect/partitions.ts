import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'

/**
 * A unique index of a table about to be partitioned whose columns lack the partition key, as it
 * is made again: a partitioned table's unique indexes must hold the key (each partition checks
 * its own rows only).
 */
export interface PartitionedUniqueKey {
  /** Its columns, the partition key among them. */
  readonly columns: readonly string[]
  /**
   * Only rows where this column is set are held to it, and a null partition key counts as
   * equal to another (`nulls not distinct`): rows with no month (in the default partition) are
   * then still unique by the other columns, as they were before.
   */
  readonly presentOnly?: string
}

/** The column whose month chooses a row's partition: text holding an ISO date, or a UTC stamp (`2026-01-31T23:59:59.000Z`). */
export interface MonthKey {
  readonly column: string
  /**
   * Whether it holds stamps: a month's bounds are then stamps too (`2026-02-01T00:00:00.000Z`),
   * so that a read bounded by a stamp (before the start of the next day) leaves the next month
   * out; as text, `2026-02-01` sorts before every stamp of that day and would keep it in.
   */
  readonly stamps: boolean
}

/** A table to partition by month of `key` (`PartitionsDialect.partitionByMonth`). */
export interface MonthPartitioning {
  readonly table: string
  readonly key: MonthKey
  /** How each unique index without the key is made again, by the index's name. */
  readonly uniqueKeys: Readonly<Record<string, PartitionedUniqueKey>>
}

/**
 * Tables kept as a partition per month (declarative range partitioning on Postgres; SQLite keeps
 * plain tables, and has no `PartitionsDialect`). A month is `YYYY-MM`; its partition holds the
 * keys from its first day up to the next month's, and is named `<table>_YYYY_MM`. Each table has
 * a default partition, `<table>_default`, for rows of months without one and rows without a key.
 */
export interface PartitionsDialect {
  /**
   * Makes a plain table partitioned by month, moving its rows: the same columns, defaults and ID
   * generator (IDs continue where they were), a partition for each month its rows hold and the
   * default one, and its indexes again on the partitioned table (the primary key `id` as a
   * plain index of `id`). Run inside a migration's transaction.
   */
  partitionByMonth(db: AnyDb, partitioning: MonthPartitioning): Promise<void>
  /**
   * Makes month's partition unless there is one; rows of that month in the default partition
   * move into it. Returns whether it was made. Takes the default partition's lock for its
   * transaction, so writers of rows without a partition wait for it (briefly: it is for months
   * ahead, whose rows are few or none).
   */
  addMonth(db: AnyDb, table: string, key: MonthKey, month: string): Promise<boolean>
  /** The months that have a partition, in order. */
  months(db: AnyDb, table: string): Promise<string[]>
}

/** `YYYY-MM` of an ISO date or timestamp, or null when it does not start with one. */
export function monthOf(value: string): string | null {
  return /^\d{4}-\d{2}/.test(value) ? value.slice(0, 7) : null
}

/** The month after `month` (`YYYY-MM`). */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number)
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

/** Partition name of a table's month: `calls_2026_01`. */
export const monthPartitionName = (table: string, month: string): string => `${table}_${month.replace('-', '_')}`

const MONTH = /^\d{4}-\d{2}$/

/** A month's range as SQL literals, first day to the next month's (DDL takes no parameters; the month is checked to be `YYYY-MM`). */
export function monthBounds(month: string, key: MonthKey) {
  if (!MONTH.test(month)) throw new Error(`not a month: ${month}`)
  const first = (m: string) => (key.stamps ? `${m}-01T00:00:00.000Z` : `${m}-01`)
  return { from: sql.lit(first(month)), to: sql.lit(first(nextMonth(month))) }
}
