import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import type { Db } from '../../adapters/persistence/schema/tables.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { Store } from '../../core/ports/store.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * Store.transaction under concurrency: each transaction's writes commit or fail as its own, on
 * every database. On SQLite concurrent transactions are committed in groups (group-commit.ts),
 * which the statements show: fewer BEGINs than transactions.
 */
for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore; statements: string[] }>(`concurrent transactions [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.statements = []
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema, onQuery: (text) => ctx.statements.push(text) })
    if (ctx.target.schema) await sql`create schema if not exists ${sql.id(ctx.target.schema)}`.execute(ctx.database.db)
    await sql`create table grouped_rows (id integer primary key, label text not null unique)`.execute(ctx.database.db)
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName)
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  const dbOf = (store: Store) => (store as KyselyStore).db as Db
  const insert = (store: Store, id: number, label: string) => sql`insert into grouped_rows (id, label) values (${id}, ${label})`.execute(dbOf(store))
  const stored = async (database: Database) =>
    (await sql<{ id: number }>`select id from grouped_rows order by id`.execute(database.db)).rows.map((r) => Number(r.id))

  test('each of 40 concurrent transactions keeps its own writes; a failing one leaves none of its own', async ({ database, store, statements }) => {
    statements.length = 0
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        store.transaction(async (trx) => {
          await insert(trx, 1000 + i, `row ${i}`)
          // Every seventh writes a second row, then fails: neither row may stay.
          if (i % 7 === 3) {
            await insert(trx, 2000 + i, `extra ${i}`)
            throw new Error(`refused ${i}`)
          }
          // Every eleventh breaks a unique constraint with its second row.
          if (i % 11 === 5) await insert(trx, 3000 + i, 'row 0')
          return i
        }),
      ),
    )
    const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []))
    assert.equal(failed, [3, 5, 10, 16, 17, 24, 27, 31, 38])
    assert.match(String((results[3] as PromiseRejectedResult).reason), 'refused 3')
    assert.equal(
      results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
      Array.from({ length: 40 }, (_, i) => i).filter((i) => !failed.includes(i)),
    )
    assert.equal(await stored(database), Array.from({ length: 40 }, (_, i) => i).filter((i) => !failed.includes(i)).map((i) => 1000 + i))
    const begins = statements.filter((s) => /^begin/i.test(s)).length
    if (name !== 'postgres') assert.ok(begins < 10, `${begins} transactions opened for 40: committed in groups`)
    else assert.is(begins, 40)
  })

  test('an answer comes after its commit: a transaction answered is seen by a new one', async ({ database, store }) => {
    await sql`delete from grouped_rows`.execute(database.db)
    const seen = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await store.transaction((trx) => insert(trx, 100 + i, `seen ${i}`))
        return (await sql<{ n: number }>`select count(*) as n from grouped_rows where id = ${100 + i}`.execute(database.db)).rows[0].n
      }),
    )
    assert.equal(seen.map(Number), Array(10).fill(1))
  })

  if (name === 'postgres') {
    test.run()
    continue
  }

  test('a group whose transaction fails fails whole; those not yet run are run in the next group', async ({ database, store }) => {
    await sql`delete from grouped_rows`.execute(database.db)
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        store.transaction(async (trx) => {
          await insert(trx, 500 + i, `group ${i}`)
          // Ending the transaction under the group (as SQLite does itself on a full disk) leaves no savepoint to return to.
          if (i === 3) {
            await sql`rollback`.execute(dbOf(trx))
            throw new Error('the disk is full')
          }
          return i
        }),
      ),
    )
    // The first runs alone (nothing waits yet); 1-5 are grouped: 1 and 2 ran before 3 ended the transaction, 4 and 5 run again.
    assert.equal(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled'],
    )
    assert.equal(await stored(database), [500, 504, 505])
  })

  test.run()
}
