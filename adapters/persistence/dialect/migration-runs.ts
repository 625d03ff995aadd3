import { sql, type Kysely } from 'kysely'

/** How a migration run is kept whole and to one process at a time (migrations/migrations.ts). */
export interface MigrationRunDialect {
  /**
   * Runs `run`, a whole migration run (Kysely's Migrator on the `db` it is given), so that it
   * applies whole or not at all, a process killed part-way included, and so that processes
   * migrating one database at once take turns: the later waits for the earlier, then finds
   * nothing left to do. `run` throws to undo everything it did.
   */
  migrationRun<T>(db: Kysely<any>, run: (db: Kysely<any>) => Promise<T>): Promise<T>
}

/**
 * How long a SQLite process waits for another's migration run before it fails. A run on a large
 * database may backfill many rows, so far longer than the connection's `busy_timeout`.
 */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60_000

/**
 * SQLite: Kysely's adapter declares no transactional DDL and its migration lock does nothing
 * (one connection), so Kysely ran each statement on its own, and a process killed between two
 * left a migration half applied that no later start could apply again; two processes on one
 * file ran the same migrations side by side. SQLite's DDL is transactional: the run (Kysely's
 * bookkeeping tables included) is one transaction begun `immediate`, which takes the file's write
 * lock first, waiting for another process's run. A migration therefore cannot do what SQLite
 * refuses or ignores inside a transaction: no `VACUUM`, no `PRAGMA foreign_keys` (a table rebuild
 * would defer its checks with `PRAGMA defer_foreign_keys` instead). None does either.
 */
export const sqliteMigrationRuns: MigrationRunDialect = {
  migrationRun: (db, run) =>
    db.connection().execute(async (connection) => {
      const timeout = (await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection)).rows[0]?.timeout ?? 0
      await sql.raw(`pragma busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`).execute(connection)
      try {
        await sql`begin immediate`.execute(connection)
      } finally {
        await sql.raw(`pragma busy_timeout = ${Number(timeout)}`).execute(connection)
      }
      try {
        const result = await run(connection)
        await sql`commit`.execute(connection)
        return result
      } catch (error) {
        // Some errors (a full disk) end the transaction themselves; the run's error is the one to tell.
        await sql`rollback`.execute(connection).catch(() => {})
        throw error
      }
    }),
}

/** Postgres: Kysely's Migrator already runs in one transaction holding its advisory lock. */
export const postgresMigrationRuns: MigrationRunDialect = {
  migrationRun: (db, run) => run(db),
}
