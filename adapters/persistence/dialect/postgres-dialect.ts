import { postgresBulkInsert } from './postgres-bulk-insert.js'
import { postgresConcurrency } from './concurrency.js'
import { postgresDdl } from './ddl.js'
import type { DatabaseDialect } from './dialect.js'
import { postgresEventNumbers } from './event-numbers.js'
import { postgresIds } from './id-codec.js'
import { postgresIdSequence } from './id-sequence.js'
import { postgresMigrationRuns } from './migration-runs.js'
import { postgresPartitions } from './postgres-partitions.js'
import { postgresStatistics } from './postgres-statistics.js'
import { postgresReads } from './reads.js'
import { postgresSnapshot } from './snapshot.js'
import { postgresListJson } from '../list-json/postgres-list-json.js'

/** Postgres's side of every concern (node-postgres, a pool of connections). */
export const postgresDialect: DatabaseDialect = {
  name: 'postgres',
  ...postgresDdl,
  ...postgresIds,
  ...postgresIdSequence,
  ...postgresBulkInsert,
  ...postgresReads,
  ...postgresConcurrency,
  ...postgresSnapshot,
  ...postgresEventNumbers,
  ...postgresMigrationRuns,
  statistics: postgresStatistics,
  partitions: postgresPartitions,
  listJson: postgresListJson('text'),
}

/** Postgres on a pool made with `jsonAsBytes`: list reads come as bytes (see postgres-list-json.ts). */
export const postgresBytesDialect: DatabaseDialect = { ...postgresDialect, listJson: postgresListJson('bytes') }
