import { Worker } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CompiledQuery, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import type { Db, Tables } from '../schema/tables.js'
import type { WriteAhead } from '../bulk-writes.js'
import { rowMaker } from '../statement-cache.js'

export interface ThreadWorkerData {
  readonly file: string
  readonly cacheMib: number
  /** A writes connection (`workerWrites`); otherwise it refuses a statement that writes. */
  readonly writes: boolean
}
export interface ThreadRequest {
  readonly id: number
  readonly sql: string
  readonly parameters: readonly unknown[]
}
export type ThreadReply =
  | { readonly id: number; readonly columns: string[]; readonly rows: unknown[][] }
  | { readonly id: number; readonly changes: number | bigint; readonly lastInsertRowid: number | bigint }
  | { readonly id: number; readonly error: { readonly message: string; readonly code?: string } }

/**
 * Page cache of the reads connection. Its reads (an import's numbers and customers) touch pages
 * all over tables larger than any cache a server can spare, so the rest comes from the operating
 * system's cache, at the reading thread's cost, not the writer's: 8 MiB read a batch no faster
 * than 2 (bench/RESULTS.md).
 */
export const READS_CACHE_MIB = 2

/**
 * The thread's young generation: it holds one statement's rows at a time, which a small one
 * collects as they go. Its old generation is left to grow: a platform's tariffs are read in one
 * statement, and a thread out of memory would fail the import.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 2 }

/**
 * Page cache of the writes connection until a bulk transaction widens it (`importing`): between
 * imports the thread is idle, and SQLite's default (2 MiB) is what the main connection keeps too.
 */
const WRITES_CACHE_MIB = 2

/**
 * A Kysely instance over a second connection to a SQLite file, in a worker thread, for reads
 * beside a transaction: SQLite's one connection is held by a transaction until it ends, and a
 * second connection on the same thread would run its reads between the writer's statements, not
 * beside them. An import looks up the next batch's numbers here while its rows are rated and
 * inserted (bench/rating.ts; figures in bench/RESULTS.md). It sees what is committed (WAL), as
 * Postgres's other pooled connections do. The thread starts with the first query and keeps the
 * process alive only while a query is under way. Reads only: it has no transactions, and a
 * statement that writes is refused.
 */
export function workerReads(file: string, cacheMib = READS_CACHE_MIB): Db {
  return threadKysely(new WorkerDriver({ file, cacheMib, writes: false }))
}

/**
 * A Kysely instance over a connection to a SQLite file in a worker thread that writes, for a
 * bulk transaction (`Store.bulkTransaction`, an import): better-sqlite3 runs a statement on the
 * thread that calls it, so on the main connection an import's inserts and the work that makes
 * its next rows (parsing, rating) took turns on one core; here they run side by side, as they
 * do with Postgres's server. Its transactions take the file's write lock when they begin
 * (`begin immediate`), one at a time.
 */
export function workerWrites(file: string): WritesBeside {
  const driver = new WorkerDriver({ file, cacheMib: WRITES_CACHE_MIB, writes: true })
  return { db: threadKysely(driver), writeAhead: (query) => driver.ahead(query) }
}

/** A writes connection in a worker thread (`workerWrites`) and how its bulk transaction sends a write ahead (`WriteAhead`). */
export interface WritesBeside {
  readonly db: Db
  readonly writeAhead: WriteAhead
}

/** A Kysely instance whose statements go to `driver`'s thread. */
export function threadKysely(driver: WorkerDriver): Db {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  })
}

// The worker's program sits beside this file: compiled (.js), or run from source (.ts) under
// tsx, whose loader hooks do not reach worker threads on Node 20.
const here = fileURLToPath(import.meta.url)
const source = extname(here) === '.ts'
const program = new URL(`./thread-worker${source ? '.ts' : '.js'}`, import.meta.url)

function startWorker(data: ThreadWorkerData): Worker {
  const options = { workerData: data, resourceLimits: WORKER_HEAP }
  return source ? new Worker(sourceProgram(), { ...options, eval: true }) : new Worker(program, options)
}

let bundled: string | undefined

/**
 * The program run from source (the tests, `npm run dev`): bundled into one piece of JavaScript
 * once per process by esbuild, the compiler tsx runs on (a dev dependency, as tsx is), its
 * `require` resolving from here. A thread that registered tsx to load the TypeScript itself paid
 * half a second of CPU for each connection, minutes over the test suite.
 */
function sourceProgram(): string {
  if (bundled === undefined) {
    // Typed here: a production install has no esbuild, and runs the compiled program.
    const esbuild = createRequire(import.meta.url)('esbuild') as { buildSync(options: object): { outputFiles: { text: string }[] } }
    const { outputFiles } = esbuild.buildSync({ entryPoints: [fileURLToPath(program)], bundle: true, write: false, platform: 'node', format: 'cjs', target: 'node20', external: ['better-sqlite3'] })
    bundled = `((require) => {\n${outputFiles[0].text}\n})(require('node:module').createRequire(${JSON.stringify(here)}))`
  }
  return bundled
}

/** A started thread and the statements it has not answered yet. */
interface Thread {
  readonly worker: Worker
  readonly pending: Map<number, { resolve(reply: ThreadReply): void; reject(error: Error): void }>
}

/** Kysely's driver for a connection in a worker thread: each statement a message to it. */
export class WorkerDriver implements Driver {
  private thread: Thread | null = null
  private nextId = 0
  /** The writes connection's holder: a transaction holds it from begin to commit or rollback. */
  private held: Promise<void> = Promise.resolve()
  private release: (() => void) | null = null
  /**
   * The open transaction's thread; `lost` once that thread has ended. Its transaction ended with
   * its connection, so the transaction's later statements are refused, not run on a new thread's
   * connection one by one, and its rollback has nothing left to do.
   */
  private transaction: { thread: Thread; lost: boolean } | null = null
  private readonly rowMakers = new Map<string, ReturnType<typeof rowMaker>>()
  private readonly connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery) => this.execute<R>(query),
    streamQuery: () => {
      throw new Error('a connection in a worker thread does not stream')
    },
  }

  constructor(private readonly data: ThreadWorkerData) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // Reads are answered in the order they were sent, whoever sent them; writes are one holder's at a time.
    if (!this.data.writes) return this.connection
    const before = this.held
    let release!: () => void
    this.held = new Promise<void>((resolve) => (release = resolve))
    await before
    this.release = release
    return this.connection
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.data.writes) throw new Error('the reads connection has no transactions: it reads beside the main connection’s')
    this.transaction = { thread: this.started(), lost: false }
    try {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    } catch (error) {
      this.transaction = null
      throw error
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'))
    } finally {
      this.transaction = null
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lost = this.transaction?.lost
    this.transaction = null
    if (!lost) await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(): Promise<void> {
    const release = this.release
    this.release = null
    release?.()
  }

  async destroy(): Promise<void> {
    const thread = this.thread
    this.thread = null
    await thread?.worker.terminate()
  }

  /** `WriteAhead`: a statement of the open transaction, sent at once. */
  ahead(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (!this.transaction) return Promise.reject(new Error('a write sent ahead belongs to a transaction, and none is open'))
    return this.execute(query)
  }

  private execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.transaction?.lost) return Promise.reject(new Error('the writes connection’s thread ended during this transaction, which ended with it'))
    const { worker, pending } = this.started()
    const id = this.nextId++
    const reply = new Promise<ThreadReply>((resolve, reject) => pending.set(id, { resolve, reject }))
    if (pending.size === 1) worker.ref()
    try {
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters } satisfies ThreadRequest)
    } catch (error) {
      // Parameters the thread cannot be sent (a function, say): the statement fails, not the caller.
      pending.delete(id)
      if (pending.size === 0) worker.unref()
      return Promise.reject(error)
    }
    // Awaited apart from the query: the thread has its own copy of the parameters, and an import's
    // batch sent ahead need not stay alive here until its answer.
    return this.answer<R>(reply)
  }

  private async answer<R>(reply: Promise<ThreadReply>): Promise<QueryResult<R>> {
    const answer = await reply
    if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
    // As Kysely's own SQLite driver answers a statement that writes.
    if ('changes' in answer) return { numAffectedRows: BigInt(answer.changes), insertId: BigInt(answer.lastInsertRowid), rows: [] }
    const toRow = this.rowMaker(answer.columns)
    return { rows: answer.rows.map((values) => toRow(values) as R) }
  }

  /** The row objects of a statement's columns, made once per column list: the reads repeat a few statements. */
  private rowMaker(columns: readonly string[]) {
    const key = columns.join('\u0000')
    let make = this.rowMakers.get(key)
    if (!make) {
      if (this.rowMakers.size >= 64) this.rowMakers.clear()
      this.rowMakers.set(key, (make = rowMaker(columns)))
    }
    return make
  }

  private started(): Thread {
    if (this.thread) return this.thread
    const thread: Thread = { worker: startWorker(this.data), pending: new Map() }
    const { worker, pending } = thread
    worker.unref()
    worker.on('message', (reply: ThreadReply) => {
      const waiting = pending.get(reply.id)
      pending.delete(reply.id)
      if (pending.size === 0) worker.unref()
      waiting?.resolve(reply)
    })
    // A thread that fails (or is ended) fails what it was asked; the next query starts another.
    const fail = (error: Error) => {
      if (this.thread === thread) this.thread = null
      if (this.transaction?.thread === thread) this.transaction.lost = true
      for (const { reject } of pending.values()) reject(error)
      pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the ${this.data.writes ? 'writes' : 'reads'} connection's thread ended (exit code ${code})`)))
    this.thread = thread
    return thread
  }
}
