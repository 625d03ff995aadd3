import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CompiledQuery, sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { insertColumns } from '../../adapters/persistence/insert-rows.js'
import { threadKysely, WorkerDriver } from '../../adapters/persistence/sqlite-thread/worker-driver.js'
import type { Worker } from 'node:worker_threads'
import type { Db } from '../../adapters/persistence/schema/tables.js'
import type { Store } from '../../core/ports/store.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * `Store.bulkTransaction`: an import's transaction. A SQLite file's runs on a writes connection
 * in a worker thread while the main connection is held, and Postgres's on a connection that
 * pipelines the inserts sent ahead (`Database.bulkWrites`); in-memory SQLite's is an ordinary
 * transaction. Either way all-or-nothing. Written once, run against every database.
 */
for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore }>(`bulk transactions [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    if (ctx.target.schema) await sql`create schema if not exists ${sql.id(ctx.target.schema)}`.execute(ctx.database.db)
    await sql`create table bulk_rows (id integer primary key, label text not null unique, amount bigint)`.execute(ctx.database.db)
    const { readsBeside, bulkWrites } = ctx.database
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName, { readsBeside, bulkWrites })
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })
  test.before.each(async ({ database }) => {
    await sql`delete from bulk_rows`.execute(database.db)
  })

  const dbOf = (store: Store) => (store as KyselyStore).db
  const labels = async (db: Db) => (await sql<{ label: string }>`select label from bulk_rows order by id`.execute(db)).rows.map((r) => r.label)
  const insertRows = (store: Store, ids: number[]) =>
    insertColumns(dbOf(store), (store as KyselyStore).dialect, 'bulk_rows', ['id', 'label', 'amount'], [ids, ids.map((i) => `row ${i}`), ids.map((i) => i * 10)], ids.length, {
      doNothingOn: ['label'],
      types: ['integer', 'text', 'bigint'],
    })

  test('a SQLite file and Postgres, not in-memory SQLite, give a bulk transaction a way to send writes ahead', async ({ database, store }) => {
    assert.is(database.bulkWrites !== undefined, name !== 'sqlite-memory')
    const ahead = await store.bulkTransaction(async (trx) => (trx as KyselyStore).writeAhead)
    assert.is(ahead !== undefined, name !== 'sqlite-memory')
    assert.is(store.writeAhead, undefined, 'only inside one')
  })

  test('inserts sent before the last is answered are made in the order sent; one that fails fails the whole transaction', async ({ database, store }) => {
    // A SQLite file's writes go to its thread at once, Postgres's down the connection (`writeAhead`); in memory they queue for the connection.
    const sendOf = (trx: Store) => (trx as KyselyStore).writeAhead
    const insertAhead = (trx: Store, ids: number[], label = (i: number) => `row ${i}`) =>
      insertColumns(dbOf(trx), (trx as KyselyStore).dialect, 'bulk_rows', ['id', 'label', 'amount'], [ids, ids.map(label), ids.map((i) => i * 10)], ids.length, {
        doNothingOn: ['label'],
        types: ['integer', 'text', 'bigint'],
        send: sendOf(trx),
      })
    // The third repeats 'row 2': skipped only if the first was made before it.
    const counts = await store.bulkTransaction((trx) => Promise.all([insertAhead(trx, [1, 2]), insertAhead(trx, [3]), insertAhead(trx, [20, 4], (i) => `row ${i / 10 === 2 ? 2 : i}`)]))
    assert.equal(counts, [2, 1, 1])
    assert.equal(await labels(database.db), ['row 1', 'row 2', 'row 3', 'row 4'])
    const error = await store
      .bulkTransaction(async (trx) => {
        const sent = [insertAhead(trx, [5]), insertAhead(trx, [1], () => 'row 1 again'), insertAhead(trx, [6])]
        await Promise.allSettled(sent)
        await Promise.all(sent)
      })
      .then(
        () => null,
        (e: Error & { code?: string }) => e,
      )
    assert.ok(error?.code, 'the second insert’s primary key conflict fails the transaction, with the database’s code')
    assert.equal(await labels(database.db), ['row 1', 'row 2', 'row 3', 'row 4'])
    const send = await store.bulkTransaction(async (trx) => sendOf(trx))
    if (send) {
      await send(CompiledQuery.raw('select 1')).then(
        () => assert.unreachable('sent outside a transaction'),
        (e: Error) => assert.match(e.message, /belongs to a transaction/),
      )
    }
  })

  test('commits what its work wrote, counting the rows an insert stored and skipping those already there', async ({ database, store }) => {
    await sql`insert into bulk_rows (id, label, amount) values (1, 'row 1', 10)`.execute(database.db)
    const counts = await store.bulkTransaction(async (trx) => {
      const first = await insertRows(trx, [1, 2, 3])
      const second = await insertRows(trx, Array.from({ length: 500 }, (_, i) => 4 + i))
      // Its own writes are seen inside it.
      assert.is((await labels(dbOf(trx))).length, 503)
      return [first, second]
    })
    assert.equal(counts, [2, 500])
    const stored = await labels(database.db)
    assert.is(stored.length, 503)
    assert.equal(stored.slice(0, 4), ['row 1', 'row 2', 'row 3', 'row 4'])
  })

  test('a failing work stores nothing, the database error keeps its code, and the next one commits', async ({ database, store }) => {
    const error = await store
      .bulkTransaction(async (trx) => {
        await insertRows(trx, [1, 2])
        await dbOf(trx).executeQuery(CompiledQuery.raw(`insert into bulk_rows (id, label, amount) values (3, 'row 1', 30)`))
      })
      .then(
        () => null,
        (e: Error & { code?: string }) => e,
      )
    assert.ok(error, 'the duplicate label fails the transaction')
    assert.ok(error!.code, 'with the database’s error code')
    assert.equal(await labels(database.db), [])
    await store.bulkTransaction((trx) => insertRows(trx, [7]))
    assert.equal(await labels(database.db), ['row 7'])
  })

  test('a thrown error rolls back; on SQLite, two bulk transactions at once run one after the other', async ({ database, store }) => {
    await store
      .bulkTransaction(async (trx) => {
        await insertRows(trx, [1])
        throw new Error('stop')
      })
      .then(
        () => assert.unreachable('resolved'),
        (e: Error) => assert.is(e.message, 'stop'),
      )
    const order: string[] = []
    const one = (id: number) =>
      store.bulkTransaction(async (trx) => {
        order.push(`begin ${id}`)
        await insertRows(trx, [id])
        await new Promise((r) => setTimeout(r, 20))
        order.push(`end ${id}`)
      })
    await Promise.all([one(10), one(11)])
    // Postgres runs them side by side, each on a connection of the pool.
    if (name !== 'postgres') assert.equal(order, ['begin 10', 'end 10', 'begin 11', 'end 11'])
    assert.equal(await labels(database.db), ['row 10', 'row 11'])
  })

  if (name === 'postgres') {
    test('a write sent ahead goes down the connection before the one before it is answered', async ({ store }) => {
      const at = await store.bulkTransaction(async (trx) => {
        const send = (trx as KyselyStore).writeAhead!
        const first = send(CompiledQuery.raw('select pg_sleep(0.2), extract(epoch from clock_timestamp())::float8 as t'))
        const second = send(CompiledQuery.raw('select extract(epoch from clock_timestamp())::float8 as t'))
        // This process takes no answer for half a second: a second statement sent only once the
        // first is answered would start then, not as the first ends.
        const until = performance.now() + 500
        while (performance.now() < until);
        return (await Promise.all([first, second])).map((r) => (r.rows[0] as { t: number }).t)
      })
      assert.ok(at[1] - at[0] < 0.15, `the second started ${(at[1] - at[0]).toFixed(3)} s after the first ended`)
    })
  }

  if (name === 'sqlite-file') {
    test('the main connection waits while a bulk transaction is open, then sees all of it', async ({ database, store }) => {
      let inside!: () => void
      const opened = new Promise<void>((resolve) => (inside = resolve))
      let finish!: () => void
      const finished = new Promise<void>((resolve) => (finish = resolve))
      const bulk = store.bulkTransaction(async (trx) => {
        await insertRows(trx, [1, 2])
        inside()
        await finished
        await insertRows(trx, [3])
      })
      await opened
      let seen: string[] | null = null
      const main = labels(database.db).then((l) => (seen = l))
      await new Promise((r) => setTimeout(r, 30))
      assert.is(seen, null, 'a statement on the main connection waits for the bulk transaction')
      finish()
      await bulk
      await main
      assert.equal(seen, ['row 1', 'row 2', 'row 3'])
    })

    test('a writes thread that ends during a transaction fails the rest of it, stores nothing, and the next transaction gets a new thread', async ({ database, target }) => {
      const driver = new WorkerDriver({ file: target.databaseUrl.slice('sqlite:'.length), cacheMib: 2, writes: true })
      const writes = threadKysely(driver)
      const worker = () => (driver as unknown as { thread: { worker: Worker } | null }).thread?.worker
      try {
        const error = await writes
          .transaction()
          .execute(async (trx) => {
            await sql`insert into bulk_rows (id, label, amount) values (1, 'row 1', 10)`.execute(trx)
            await worker()!.terminate()
            // Not run one by one on a new thread's connection, outside any transaction.
            await sql`insert into bulk_rows (id, label, amount) values (2, 'row 2', 20)`.execute(trx)
          })
          .then(
            () => null,
            (e: Error) => e,
          )
        assert.match(error?.message ?? '', /ended during this transaction/)
        assert.equal(await labels(database.db), [])
        await writes.transaction().execute((trx) => sql`insert into bulk_rows (id, label, amount) values (3, 'row 3', 30)`.execute(trx))
        assert.equal(await labels(database.db), ['row 3'])
      } finally {
        await writes.destroy()
      }
    })
  }

  test.run()
}
