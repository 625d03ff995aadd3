import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig, type TransactionSettings } from 'kysely'

/**
 * Kysely's SQLite dialect whose transactions take the file's write lock when they begin
 * (`begin immediate`), as the worker threads' do (`WorkerDriver`). Kysely's own begins deferred:
 * a transaction that read first and then wrote, after another process (a worker on the same
 * file) had written, could not take the lock and failed at once with SQLITE_BUSY, since SQLite
 * does not call its busy handler for a read transaction's upgrade. Begun immediate, it waits
 * `busy_timeout` at its start, before it has read anything. A transaction marked read only (a
 * disaster-recovery export's snapshot) still begins deferred, so it keeps other writers waiting
 * for nothing.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config)
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config)
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'))
  }
}
