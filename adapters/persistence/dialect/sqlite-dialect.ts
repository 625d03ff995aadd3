import { sqliteBulkInsert } from './sqlite-bulk-insert.js'
import { sqliteConcurrency } from './concurrency.js'
import { sqliteDdl } from './ddl.js'
import type { DatabaseDialect } from './dialect.js'
import { sqliteEventNumbers } from './event-numbers.js'
import { sqliteIds } from './id-codec.js'
import { sqliteIdSequence } from './id-sequence.js'
import { sqliteMigrationRuns } from './migration-runs.js'
import { sqliteReads } from './reads.js'
import { sqliteSnapshot } from './snapshot.js'
import { sqliteListJson } from '../list-json/sqlite-list-json.js'

/** SQLite's side of every concern (better-sqlite3, one connection, WAL). */
export const sqliteDialect: DatabaseDialect = {
  name: 'sqlite',
  ...sqliteDdl,
  ...sqliteIds,
  ...sqliteIdSequence,
  ...sqliteBulkInsert,
  ...sqliteReads,
  ...sqliteConcurrency,
  ...sqliteSnapshot,
  ...sqliteEventNumbers,
  ...sqliteMigrationRuns,
  statistics: null,
  partitions: null,
  listJson: sqliteListJson,
}

/** SQLite through `connect()`, whose statement cache runs a one-row insert for each row (`EACH_ROW`). */
export const sqliteCachingDialect: DatabaseDialect = { ...sqliteDialect, insertsEachRow: true }
