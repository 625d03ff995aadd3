import { parentPort, workerData } from 'node:worker_threads'
import Database, { type Statement } from 'better-sqlite3'
import { EACH_ROW, eachRow } from '../statement-cache.js'
import type { ThreadReply, ThreadRequest, ThreadWorkerData } from './worker-driver.js'

/**
 * The program of the worker thread behind `workerReads` and `workerWrites`: another connection
 * to the database file, answering one statement per message, a read's rows as arrays. A reads
 * connection refuses to write; a writes connection has the main one's settings.
 */
const { file, cacheMib, writes } = workerData as ThreadWorkerData
const db = new Database(file, { fileMustExist: true })
if (writes) {
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
} else db.pragma('query_only = 1')
db.pragma('busy_timeout = 10000')
db.pragma(`cache_size = ${-cacheMib * 1024}`)

/** A read answers rows as arrays under its column names; a write, what it changed. */
type Prepared =
  | { readonly reader: true; readonly columns: string[]; all(parameters: readonly unknown[]): unknown[] }
  | { readonly reader: false; run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } }

/** Prepared statements by SQL text, the least recently used dropped first (as statement-cache.ts). */
const statements = new Map<string, Prepared>()
const STATEMENTS = 64

function prepare(sql: string): Prepared {
  const stmt: Statement = db.prepare(sql)
  if (stmt.reader) {
    const raw = stmt.raw(true)
    return { reader: true, columns: stmt.columns().map((c) => c.name), all: (p) => raw.all(p) }
  }
  if (!writes) throw Object.assign(new Error('the reads connection only reads: a statement that writes goes on the main connection'), { code: 'READS_ONLY' })
  const write = sql.startsWith(EACH_ROW) ? eachRow(stmt, sql) : stmt
  return { reader: false, run: (p) => write.run(p) }
}

function prepared(sql: string): Prepared {
  let hit = statements.get(sql)
  if (hit) statements.delete(sql)
  else {
    hit = prepare(sql)
    if (statements.size >= STATEMENTS) statements.delete(statements.keys().next().value!)
  }
  statements.set(sql, hit)
  return hit
}

parentPort!.on('message', ({ id, sql, parameters }: ThreadRequest) => {
  let reply: ThreadReply
  try {
    const stmt = prepared(sql)
    if (stmt.reader) reply = { id, columns: stmt.columns, rows: stmt.all(parameters) as unknown[][] }
    else {
      const { changes, lastInsertRowid } = stmt.run(parameters)
      reply = { id, changes, lastInsertRowid }
    }
  } catch (error) {
    const e = error as { message?: string; code?: string }
    reply = { id, error: { message: String(e?.message ?? error), code: e?.code } }
  }
  parentPort!.postMessage(reply)
})
