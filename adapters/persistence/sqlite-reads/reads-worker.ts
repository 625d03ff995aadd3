import { parentPort, workerData } from 'node:worker_threads'
import Database, { type Statement } from 'better-sqlite3'
import type { ReadReply, ReadRequest, ReadsWorkerData } from './worker-reads-driver.js'

/**
 * The program of the worker thread behind `workerReads`: a second connection to the database
 * file, for reads only, answering one statement per message with its rows as arrays.
 */
const { file, cacheMib } = workerData as ReadsWorkerData
const db = new Database(file, { fileMustExist: true })
db.pragma('query_only = 1')
db.pragma('busy_timeout = 10000')
db.pragma(`cache_size = ${-cacheMib * 1024}`)

/** Prepared statements by SQL text, the least recently used dropped first (as statement-cache.ts). */
const statements = new Map<string, { readonly stmt: Statement; readonly columns: string[] }>()
const STATEMENTS = 64

function prepared(sql: string) {
  let hit = statements.get(sql)
  if (hit) statements.delete(sql)
  else {
    const stmt = db.prepare(sql)
    if (!stmt.reader) throw Object.assign(new Error('the reads connection only reads: a statement that writes goes on the main connection'), { code: 'READS_ONLY' })
    hit = { stmt: stmt.raw(true), columns: stmt.columns().map((c) => c.name) }
    if (statements.size >= STATEMENTS) statements.delete(statements.keys().next().value!)
  }
  statements.set(sql, hit)
  return hit
}

parentPort!.on('message', ({ id, sql, parameters }: ReadRequest) => {
  let reply: ReadReply
  try {
    const { stmt, columns } = prepared(sql)
    reply = { id, columns, rows: stmt.all(parameters) as unknown[][] }
  } catch (error) {
    const e = error as { message?: string; code?: string }
    reply = { id, error: { message: String(e?.message ?? error), code: e?.code } }
  }
  parentPort!.postMessage(reply)
})
