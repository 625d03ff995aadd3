import type { AnyDb } from './schema/tables.js'
import type { DatabaseDialect } from './dialect/dialect.js'
import { monthOf, monthPartitionName, nextMonth, type MonthKey } from './dialect/partitions.js'
import { monthPartitioned, type MonthPartitionedTable } from './schema/month-partitions.js'

/** Months after the current one whose partitions are made ahead: a missed day or two of the job leaves the next month ready. */
export const MONTHS_AHEAD = 2

/**
 * Makes the partitions of `today`'s month and the `ahead` months after it, for every table kept
 * as a partition per month, where they are missing (docs/scaling.md): rows of those months then
 * never wait in the default partition. Safe to run again and on several workers at once; on
 * SQLite (plain tables) it does nothing. Returns the partitions made.
 */
export async function addMonthsAhead(database: { readonly db: AnyDb; readonly dialect: DatabaseDialect }, today: string, ahead = MONTHS_AHEAD): Promise<string[]> {
  const partitions = database.dialect.partitions
  const first = monthOf(today)
  if (!partitions || !first) return []
  const made: string[] = []
  for (const [table, key] of Object.entries(monthPartitioned) as [MonthPartitionedTable, MonthKey][]) {
    let month = first
    for (let i = 0; i <= ahead; i++, month = nextMonth(month)) {
      if (await partitions.addMonth(database.db, table, key, month)) made.push(monthPartitionName(table, month))
    }
  }
  return made
}
