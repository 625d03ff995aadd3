import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRequire } from 'node:module'
import { setTimeout as delay } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { activeTargets, openTarget, type Target, type TargetName } from '../support/targets.js'

/**
 * Another process (a worker beside the server) writes the same database while a transaction of
 * the main connection reads and then writes: the writes wait for each other, and none fails.
 * On a SQLite file a transaction that had read before another connection wrote could not take
 * the write lock and failed at once with SQLITE_BUSY (the server answered 500), since SQLite
 * calls no busy handler for a read transaction's upgrade: its transactions now take the lock
 * when they begin (`ImmediateSqliteDialect`). In-memory SQLite has no second connection.
 */

/** Another connection's write transaction: `holding` once its statements ran, `done` once it committed `holdMs` later. */
interface OtherWriter {
  write(statements: string[], holdMs: number): { holding: Promise<void>; done: Promise<void> }
  close(): Promise<void>
}

/** A promise settled from outside (Node 20 has no `Promise.withResolvers`): failed when given an error. */
interface Settled {
  readonly promise: Promise<void>
  settle(error?: string): void
}

function settled(): Settled {
  let settle!: (error?: string) => void
  const promise = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(new Error(error)) : resolve())))
  promise.catch(() => {})
  return { promise, settle }
}

/** A SQLite file's other connection, in a thread: better-sqlite3 waits for a lock by blocking its thread. */
function sqliteWriter(file: string): OtherWriter {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const program = `
    const { parentPort, workerData } = require('node:worker_threads')
    const db = new (require(workerData.driver))(workerData.file)
    db.pragma('busy_timeout = 10000')
    parentPort.on('message', ({ id, statements, holdMs }) => {
      try {
        db.exec('begin immediate')
        for (const s of statements) db.exec(s)
        parentPort.postMessage({ id, phase: 'holding' })
        setTimeout(() => {
          try { db.exec('commit'); parentPort.postMessage({ id, phase: 'done' }) }
          catch (e) { parentPort.postMessage({ id, phase: 'done', error: e.code + ': ' + e.message }) }
        }, holdMs)
      } catch (e) {
        if (db.inTransaction) db.exec('rollback')
        parentPort.postMessage({ id, phase: 'failed', error: e.code + ': ' + e.message })
      }
    })`
  const worker = new Worker(program, { eval: true, workerData: { driver, file } })
  const waiting = new Map<number, { holding: Settled; done: Settled }>()
  worker.on('message', ({ id, phase, error }: { id: number; phase: string; error?: string }) => {
    const w = waiting.get(id)!
    if (phase === 'holding') return w.holding.settle()
    w.holding.settle(error)
    w.done.settle(error)
  })
  let next = 0
  return {
    write(statements, holdMs) {
      const id = next++
      const w = { holding: settled(), done: settled() }
      waiting.set(id, w)
      worker.postMessage({ id, statements, holdMs })
      return { holding: w.holding.promise, done: w.done.promise }
    },
    close: async () => void (await worker.terminate()),
  }
}

/** Postgres's other connection: a pool of its own on the same schema. */
function postgresWriter(target: Target): OtherWriter {
  const other = connect(target.databaseUrl, { schema: target.schema })
  return {
    write(statements, holdMs) {
      const holding = settled()
      const done = other.db.transaction().execute(async (trx) => {
        for (const s of statements) await sql.raw(s).execute(trx)
        holding.settle()
        await delay(holdMs)
      })
      done.catch((e: Error) => holding.settle(e.message))
      return { holding: holding.promise, done }
    },
    close: () => other.close(),
  }
}

for (const name of activeTargets().filter((n): n is Exclude<TargetName, 'sqlite-memory'> => n !== 'sqlite-memory')) {
  const test = suite<{ target: Target; database: Database; other: OtherWriter }>(`writes of two connections wait for each other [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    if (ctx.target.schema) await sql`create schema if not exists ${sql.id(ctx.target.schema)}`.execute(ctx.database.db)
    await sql`create table shared_rows (id integer primary key, label text not null)`.execute(ctx.database.db)
    ctx.other = name === 'sqlite-file' ? sqliteWriter(ctx.target.databaseUrl.slice('sqlite:'.length)) : postgresWriter(ctx.target)
    // Started and connected before the tests time its writes.
    await ctx.other.write([], 0).done
  })
  test.after(async (ctx) => {
    await ctx.other.close()
    await ctx.database.close()
    await ctx.target.dispose()
  })
  test.before.each(async ({ database }) => void (await sql`delete from shared_rows`.execute(database.db)))

  const ids = async (database: Database) => (await sql<{ id: number }>`select id from shared_rows order by id`.execute(database.db)).rows.map((r) => Number(r.id))

  test('a write sent by another connection between a transaction’s read and its write: both succeed', async ({ database, other }) => {
    const committed: string[] = []
    let others!: Promise<void>
    await database.db.transaction().execute(async (trx) => {
      await sql`select count(*) from shared_rows`.execute(trx)
      others = other.write([`insert into shared_rows values (2, 'other')`], 0).done.then(() => void committed.push('other'))
      // Time for the other's write to commit, unless it waits for this transaction.
      await Promise.race([others, delay(500)])
      await sql`insert into shared_rows values (3, 'transaction')`.execute(trx)
      committed.push('transaction')
    })
    await others
    // SQLite's write lock is the whole file's, taken when the transaction began; Postgres locks rows.
    const expected = { 'sqlite-file': ['transaction', 'other'], postgres: ['other', 'transaction'] }
    assert.equal(committed, expected[name])
    assert.equal(await ids(database), [2, 3])
  })

  test('a transaction that begins while another connection holds the write lock waits for its commit, then reads and writes', async ({ database, other }) => {
    const held = other.write([`insert into shared_rows values (4, 'other')`], 200)
    await held.holding
    const started = Date.now()
    const seen = await database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`select count(*) as n from shared_rows`.execute(trx)
      await sql`insert into shared_rows values (5, 'transaction')`.execute(trx)
      return Number(rows[0].n)
    })
    const waited = Date.now() - started >= 150
    await held.done
    // SQLite waits (busy_timeout) and then sees the other's row; Postgres's row locks let it go on at once.
    const expected = { 'sqlite-file': { seen: 1, waited: true }, postgres: { seen: 0, waited: false } }
    assert.equal({ seen, waited }, expected[name])
    assert.equal(await ids(database), [4, 5])
  })

  test.run()
}
