import { sql } from 'kysely'
import type { Books, CommissionRow, CommissionWindow, DateRange, JournalCsvPage, JournalPage, JournalScope, MarginGrouping, MarginSums, ProfilePercentsByName } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { commissionHolders, keptCommissionHolders } from './commission-holders.js'
import { commissionRows } from './commission-rows.js'
import { keepCommissionTerms } from './commission-terms.js'
import { journalSums } from './journal-sums.js'
import { marginSums } from './margin-sums.js'

/**
 * The books' reports on Kysely, both databases: aggregates in SQL (margin-sums.ts,
 * journal-sums.ts). On the main connection, also for a SQLite file: on its reads thread the
 * journal cost about 1.7 s more CPU (rows copied between threads) and, with no core to spare,
 * took longer (bench/RESULTS.md, session 31).
 */
export class KyselyBooks implements Books {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  margin(range: DateRange, groupBy: MarginGrouping, currency: string | null = null): AsyncIterable<readonly MarginSums[]> {
    return marginSums(this.db, this.dialect, range, groupBy, currency)
  }

  journal(scope: JournalScope): AsyncIterable<JournalPage>
  journal(scope: JournalScope, csv: boolean): AsyncIterable<JournalPage | JournalCsvPage>
  journal(scope: JournalScope, csv = false): AsyncIterable<JournalPage | JournalCsvPage> {
    return journalSums(this.db, this.dialect, scope, csv)
  }

  commissionRows(window: CommissionWindow, holder: string | null): AsyncIterable<readonly CommissionRow[]> {
    return commissionRows(this.db, this.dialect, window, holder)
  }

  commissionHolders(window?: CommissionWindow): AsyncIterable<readonly string[]> {
    if (!window) return commissionHolders(this.db)
    const run = this.dialect.encodeId(window.billingRunID)
    return window.complete ? keptCommissionHolders(this.db, run) : commissionHolders(this.db, undefined, run)
  }

  keepCommissionTerms(billingRunID: string, profiles: ProfilePercentsByName): Promise<void> {
    return keepCommissionTerms(this.db, this.dialect, sql<boolean>`i."billingRunID" = ${this.dialect.encodeId(billingRunID)}`, profiles)
  }
}
