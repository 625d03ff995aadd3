import { Worker } from 'node:worker_threads'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'
import type { Db, Tables } from '../schema/tables.js'
import { rowMaker } from '../statement-cache.js'

export interface ReadsWorkerData {
  readonly file: string
  readonly cacheMib: number
}
export interface ReadRequest {
  readonly id: number
  readonly sql: string
  readonly parameters: readonly unknown[]
}
export type ReadReply =
  | { readonly id: number; readonly columns: string[]; readonly rows: unknown[][] }
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
 * A Kysely instance over a second connection to a SQLite file, in a worker thread, for reads
 * beside a transaction: SQLite's one connection is held by a transaction until it ends, and a
 * second connection on the same thread would run its reads between the writer's statements, not
 * beside them. An import looks up the next batch's numbers here while the main thread rates and
 * inserts (bench/rating.ts; figures in bench/RESULTS.md). It sees what is committed (WAL), as
 * Postgres's other pooled connections do. The thread starts with the first query and keeps the
 * process alive only while a query is under way. Reads only: it has no transactions, and a
 * statement that writes is refused.
 */
export function workerReads(file: string, cacheMib = READS_CACHE_MIB): Db {
  const driver = new WorkerReadsDriver({ file, cacheMib })
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
// tsx, whose loader hooks do not reach worker threads on Node 20, so there the thread registers
// them itself before it loads the program.
const source = extname(fileURLToPath(import.meta.url)) === '.ts'
const program = new URL(`./reads-worker${source ? '.ts' : '.js'}`, import.meta.url)

function startWorker(data: ReadsWorkerData): Worker {
  const options = { workerData: data, resourceLimits: WORKER_HEAP }
  if (!source) return new Worker(program, options)
  const tsx = import.meta.resolve('tsx/esm/api')
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(program.href)}) })`, { ...options, eval: true })
}

/** A started thread and the statements it has not answered yet. */
interface Thread {
  readonly worker: Worker
  readonly pending: Map<number, { resolve(reply: ReadReply): void; reject(error: Error): void }>
}

class WorkerReadsDriver implements Driver {
  private thread: Thread | null = null
  private nextId = 0
  private readonly rowMakers = new Map<string, ReturnType<typeof rowMaker>>()
  private readonly connection: DatabaseConnection = {
    executeQuery: <R>(query: CompiledQuery) => this.execute<R>(query),
    streamQuery: () => {
      throw new Error('the reads connection does not stream')
    },
  }

  constructor(private readonly data: ReadsWorkerData) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection
  }

  async beginTransaction(): Promise<void> {
    throw new Error('the reads connection has no transactions: it reads beside the main connection’s')
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    const thread = this.thread
    this.thread = null
    await thread?.worker.terminate()
  }

  private async execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { worker, pending } = this.started()
    const id = this.nextId++
    const reply = new Promise<ReadReply>((resolve, reject) => pending.set(id, { resolve, reject }))
    if (pending.size === 1) worker.ref()
    worker.postMessage({ id, sql: query.sql, parameters: query.parameters } satisfies ReadRequest)
    const answer = await reply
    if ('error' in answer) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
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
    worker.on('message', (reply: ReadReply) => {
      const waiting = pending.get(reply.id)
      pending.delete(reply.id)
      if (pending.size === 0) worker.unref()
      waiting?.resolve(reply)
    })
    // A thread that fails (or is ended) fails what it was asked; the next query starts another.
    const fail = (error: Error) => {
      if (this.thread === thread) this.thread = null
      for (const { reject } of pending.values()) reject(error)
      pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the reads connection's thread ended (exit code ${code})`)))
    this.thread = thread
    return thread
  }
}
