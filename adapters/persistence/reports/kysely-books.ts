import type { Books, CommissionRow, CommissionWindow, DateRange, JournalScope, JournalSums, MarginGrouping, MarginSums } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { commissionHolders } from './commission-holders.js'
import { commissionRows } from './commission-rows.js'
import { journalSums } from './journal-sums.js'
import { marginSums } from './margin-sums.js'

/**
 * The books' reports on Kysely, both databases: aggregates in SQL (margin-sums.ts,
 * journal-sums.ts). They read on `reads` where there is one (a SQLite file's reads thread):
 * what is committed, which is what a report is of, while this thread writes out the page before.
 */
export class KyselyBooks implements Books {
  private readonly db: Db

  constructor(
    db: Db,
    private readonly dialect: DatabaseDialect,
    reads?: Db,
  ) {
    this.db = reads ?? db
  }

  margin(range: DateRange, groupBy: MarginGrouping): AsyncIterable<readonly MarginSums[]> {
    return marginSums(this.db, this.dialect, range, groupBy)
  }

  journal(scope: JournalScope): AsyncIterable<readonly JournalSums[]> {
    return journalSums(this.db, this.dialect, scope)
  }

  commissionRows(window: CommissionWindow, holder: string | null): AsyncIterable<readonly CommissionRow[]> {
    return commissionRows(this.db, this.dialect, window, holder)
  }

  commissionHolders(): AsyncIterable<readonly string[]> {
    return commissionHolders(this.db)
  }
}
