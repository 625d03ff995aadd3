import type { Db } from '../schema/tables.js'
import type { BulkInsertDialect } from './bulk-insert.js'
import type { ConcurrencyDialect } from './concurrency.js'
import type { DdlDialect } from './ddl.js'
import type { EventNumbersDialect } from './event-numbers.js'
import type { IdCodec } from './id-codec.js'
import type { IdSequence } from './id-sequence.js'
import type { MigrationRunDialect } from './migration-runs.js'
import type { PartitionsDialect } from './partitions.js'
import type { ReadsDialect } from './reads.js'
import type { SnapshotDialect } from './snapshot.js'
import type { ListJsonDialect } from '../list-json/list-json-dialect.js'

export type DialectName = 'sqlite' | 'postgres'

/**
 * Everything that differs between SQLite and Postgres, in this folder (like Kysely's dialect
 * folders): one small piece per concern, each with its SQLite and Postgres side, composed in
 * sqlite-dialect.ts and postgres-dialect.ts. Repositories and migrations are written once
 * against this.
 */
export interface DatabaseDialect extends DdlDialect, IdCodec, IdSequence, BulkInsertDialect, ReadsDialect, ConcurrencyDialect, SnapshotDialect, EventNumbersDialect, MigrationRunDialect {
  readonly name: DialectName
  /** How the database writes list pages' JSON (../list-json). */
  readonly listJson: ListJsonDialect
  /** The planner's statistics of tables, kept current as jobs grow them (see `PlannerStatistics`); null where the planner needs none (SQLite). */
  readonly statistics: StatisticsDialect | null
  /** Tables kept as a partition per month (schema/month-partitions.ts); null where tables stay plain (SQLite). */
  readonly partitions: PartitionsDialect | null
}

/** How a database's planner statistics of a table are read and refreshed. */
export interface StatisticsDialect {
  /** Rows the planner last counted in the table, and rows written to it since by any connection (as far as the database has counted them yet). */
  tableCounts(db: Db, table: string): Promise<{ known: number; modified: number }>
  /** Counts the table again (`ANALYZE`). */
  analyze(db: Db, table: string): Promise<void>
}
