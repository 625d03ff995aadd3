import type { StatisticsDialect } from './dialect/dialect.js'
import type { Db } from './schema/tables.js'

/** Rows written to a table before its statistics are first refreshed (a run's first thousand customers or so). */
export const FIRST_REFRESH_ROWS = 5_000

/**
 * Whether a table's statistics are stale: written to since they were taken by as many rows as
 * they counted (at least `FIRST_REFRESH_ROWS`), so a table refreshed as it grows is refreshed
 * at each doubling, a few times over a run of a million rows. A plan chosen while the ledger
 * looked empty scans the whole table once it holds a million rows (Postgres without fresh
 * statistics: a billing run slowed to a crawl).
 */
export function statisticsStale(written: number, known: number): boolean {
  return written >= Math.max(FIRST_REFRESH_ROWS, known)
}

/**
 * Keeps the planner's statistics of the tables that jobs grow (the ledger and invoices) current,
 * counting the rows this process writes to them: after a commit, a table written by as many rows
 * as its statistics counted is counted again. The database's own count of writes since its last
 * `ANALYZE` is taken too, so the writes of other workers on the same run, or of a bulk load before
 * it, count as well; a refresh made by another worker is seen in what the statistics count. One
 * per root store, shared by the stores of its transactions.
 */
export class PlannerStatistics {
  /** Rows this process wrote to each table since it last looked at its statistics. */
  private readonly written = new Map<string, number>()
  /** What each table's statistics counted when this process last looked. */
  private readonly known = new Map<string, number>()

  constructor(private readonly dialect: StatisticsDialect | null) {}

  /** Counts rows written to a table (by a transaction about to commit, or just committed). */
  wrote(table: string, rows: number): void {
    if (this.dialect && rows > 0) this.written.set(table, (this.written.get(table) ?? 0) + rows)
  }

  /**
   * Refreshes what has gone stale; call it outside a transaction, after the writes committed.
   * Never fails: the writes it follows are committed, and statistics only help the planner; a
   * table whose refresh failed keeps its count and is tried again after the next commit.
   */
  async refresh(db: Db): Promise<void> {
    if (!this.dialect) return
    for (const [table, written] of this.written) {
      if (!statisticsStale(written, this.known.get(table) ?? 0)) continue
      await this.refreshTable(db, this.dialect, table, written).catch(() => {})
    }
  }

  private async refreshTable(db: Db, dialect: StatisticsDialect, table: string, written: number): Promise<void> {
    const counts = await dialect.tableCounts(db, table)
    if (statisticsStale(Math.max(written, counts.modified), counts.known)) {
      await dialect.analyze(db, table)
      // Rows written while ANALYZE ran count towards the next refresh.
      this.written.set(table, (this.written.get(table) ?? written) - written)
      this.known.set(table, (await dialect.tableCounts(db, table)).known)
    } else {
      this.known.set(table, counts.known)
    }
  }
}
