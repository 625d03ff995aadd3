import { mkdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, type LogEvent } from 'kysely'
import pg from 'pg'
import type { DatabaseDialect, DialectName } from './dialect/dialect.js'
import { postgresBytesDialect, postgresDialect } from './dialect/postgres-dialect.js'
import { SearchPathPostgresDialect } from './dialect/search-path-introspector.js'
import { jsonAsBytes } from './list-json/postgres-list-json.js'
import { sqliteCachingDialect, sqliteDialect } from './dialect/sqlite-dialect.js'
import { ImmediateSqliteDialect } from './dialect/immediate-sqlite-dialect.js'
import { preparingClient } from './prepared-statements.js'
import { cachingStatements } from './statement-cache.js'
import { workerReads, workerWrites } from './sqlite-thread/worker-driver.js'
import { walCheckpoints } from './sqlite-thread/wal-checkpoints.js'
import type { BulkWrites } from './bulk-writes.js'
import { pipelinedTransactions } from './pg-pipeline/pipelined-transaction.js'
import { dropFailedConnections, type OnConnectionLost } from './failed-connections.js'
import type { AnyDb, Db, Tables } from './schema/tables.js'

export interface Database {
  readonly db: Db
  readonly dialect: DatabaseDialect
  /** A short description without credentials, for logs. */
  readonly description: string
  /**
   * Another connection, for reads that run while a transaction holds `db`'s: an import looks up
   * a batch's numbers on it while the batch before is written. Postgres's pool gives one;
   * a SQLite file gets a reads connection in a worker thread (`workerReads`); an in-memory
   * SQLite database, which no second connection can open, has none.
   */
  readonly readsBeside?: Db
  /**
   * Where a bulk transaction (an import) runs, when not as an ordinary transaction on `db`: a
   * SQLite file's writes connection in a worker thread (`workerWrites`), so the rows are inserted
   * while the next are made; a Postgres connection that pipelines its inserts
   * (`pipelinedTransactions`). An in-memory SQLite database has one connection, and on a single
   * core the thread would only add work.
   */
  readonly bulkWrites?: BulkWrites
  /**
   * Where a pipelined transaction (a billing run's step) runs, reading beside it on
   * `readsBeside`: Postgres's pipelining connections, so the server makes a batch's writes while
   * this process plans the next. SQLite has none: on its writes thread, copying a run's rows to
   * the thread cost more than the overlap gained (bench/RESULTS.md). A SQLite file's step writes
   * on `db` and reads its next page on `readsBeside` meanwhile (`Store.pipelinedTransaction`).
   */
  readonly pipelinedWrites?: BulkWrites
  close(): Promise<void>
}

export interface ConnectOptions {
  /** Postgres: the schema to use (created when missing); tests isolate themselves with it. */
  readonly schema?: string
  /** Postgres pool size. */
  readonly poolSize?: number
  /**
   * Called after every query with its SQL and the milliseconds it took (tests count queries to
   * prove there is no query per item; bench/billing-run.ts `--statements` sums their time).
   */
  readonly onQuery?: (sql: string, ms: number) => void
  /**
   * SQLite in memory: the database starts as a copy of this one (the bytes of better-sqlite3's
   * `serialize()`) instead of empty. Tests start each platform from one migrated database,
   * which is much cheaper than migrating every one (tests/support/migrated-template.ts).
   */
  readonly sqliteImage?: Buffer
  /** Postgres: told of a pooled connection that failed (its backend or socket ended); the process goes on. */
  readonly onConnectionLost?: OnConnectionLost
}

/** Opens `sqlite:<file>`, `sqlite::memory:` or `postgres://…`. */
export function connect(url: string, options: ConnectOptions = {}): Database {
  if (url.startsWith('sqlite:')) return connectSqlite(url.slice('sqlite:'.length), options)
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return connectPostgres(url, options)
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(':')[0]}:")`)
}

function logOption(options: ConnectOptions) {
  const onQuery = options.onQuery
  return onQuery ? { log: (event: LogEvent) => onQuery(event.query.sql, event.queryDurationMillis) } : {}
}

function connectSqlite(file: string, options: ConnectOptions): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const sqlite = new SqliteDatabase(file === ':memory:' && options.sqliteImage ? options.sqliteImage : file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 10000')
  // Its transactions take the write lock when they begin: a worker may share the file.
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: cachingStatements(sqlite) }), ...logOption(options) })
  const readsBeside = file === ':memory:' ? undefined : workerReads(file)
  // The threads that work beside the main one (writes, checkpoints) need a core of their own:
  // on one, their messages and turns would only add to its CPU (bench/RESULTS.md, session 16).
  const besideCores = file !== ':memory:' && availableParallelism() >= 2
  // An import's inserts, beside the main thread's parsing and rating.
  const writes = besideCores ? workerWrites(file) : undefined
  // The main connection is held meanwhile, so everything else waits as it would for a
  // transaction on it: a write there would wait for the file's lock, blocking this thread.
  const bulkWrites: BulkWrites | undefined = writes && ((work) => db.connection().execute(() => writes.db.transaction().execute((trx) => work(trx, writes.writeAhead))))
  // The main connection's commits leave the copying of the log into the file to a thread of its own.
  const checkpoints = besideCores ? walCheckpoints(sqlite, file) : undefined
  return {
    db,
    dialect: sqliteCachingDialect,
    description: `sqlite:${file}`,
    readsBeside,
    bulkWrites,
    close: async () => {
      await readsBeside?.destroy()
      await writes?.db.destroy()
      await checkpoints?.stop()
      await db.destroy()
    },
  }
}

function connectPostgres(url: string, options: ConnectOptions): Database {
  const session = sessionOptions(url, options.schema)
  const config: pg.PoolConfig = {
    Client: preparingClient(),
    connectionString: session.url,
    max: options.poolSize ?? 10,
    types: jsonAsBytes,
    ...(session.options ? { options: session.options } : {}),
  }
  const pool = dropFailedConnections(new pg.Pool(config), options.onConnectionLost)
  const db = new Kysely<Tables>({ dialect: new SearchPathPostgresDialect({ pool }), ...logOption(options) })
  const bulk = pipelinedTransactions({ ...config, Client: preparingClient() }, logOption(options), options.onConnectionLost)
  const safe = new URL(url)
  safe.password = ''
  return {
    db,
    dialect: postgresBytesDialect,
    description: `postgres://${safe.host}${safe.pathname}${options.schema ? `#${options.schema}` : ''}`,
    readsBeside: db,
    bulkWrites: bulk.bulkWrites,
    pipelinedWrites: bulk.bulkWrites,
    close: async () => {
      await bulk.end()
      await db.destroy()
    },
  }
}

/**
 * The session settings of every connection: libpq's `PGOPTIONS`, the URL's `options`, then the
 * schema's search path. node-pg takes only one of them (the URL's over the others, and
 * `PGOPTIONS` only when nothing else sets any), so a schema silently dropped an operator's
 * `PGOPTIONS`; here they add up, and the URL is passed on without its `options`.
 */
function sessionOptions(url: string, schema: string | undefined): { url: string; options: string } {
  const parsed = /[?&]options=/.test(url) ? new URL(url) : null
  const fromUrl = parsed?.searchParams.get('options')
  parsed?.searchParams.delete('options')
  const options = [process.env.PGOPTIONS, fromUrl, schema ? `-c search_path=${schema}` : null].filter(Boolean).join(' ')
  return { url: parsed ? parsed.toString() : url, options }
}

/**
 * Wraps a Kysely instance the caller already has (an embedding application's pool, typed with
 * its own tables, hence `AnyDb`). The caller owns it: `close()` leaves it open. SQLite needs
 * `PRAGMA foreign_keys = ON` on its connection.
 */
export function wrapKysely(db: AnyDb, dialect: DialectName): Database {
  return {
    db,
    dialect: dialect === 'postgres' ? postgresDialect : sqliteDialect,
    description: `${dialect} (an existing Kysely instance)`,
    // A pool's other connections; an embedder's SQLite connection is the only one we know of.
    readsBeside: dialect === 'postgres' ? db : undefined,
    close: async () => {},
  }
}
