import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * `Database.readsBeside`: the connection an import's lookups use while its transaction holds the
 * main one. A SQLite file's is a second connection in a worker thread; Postgres's is its pool;
 * an in-memory SQLite database has none. Written once, run against every database.
 */
for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database }>(`reads beside a transaction [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    if (ctx.target.schema) await sql`create schema if not exists ${sql.id(ctx.target.schema)}`.execute(ctx.database.db)
    await sql`create table beside_rows (id integer primary key, label text, amount bigint)`.execute(ctx.database.db)
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  test('a store reads beside its transactions exactly where the database has another connection', ({ database }) => {
    assert.is(database.readsBeside !== undefined, name !== 'sqlite-memory')
    const store = new KyselyStore(database.db, database.dialect, resourcesByName, { readsBeside: database.readsBeside })
    assert.is(store.rating.readsBesideWrites, name !== 'sqlite-memory')
    assert.is(new KyselyStore(database.db, database.dialect, resourcesByName).rating.readsBesideWrites, false)
  })

  if (name === 'sqlite-memory') {
    test.run()
    continue
  }

  test('reads what is committed: not the rows of a transaction still open, then its rows once it commits', async ({ database }) => {
    const beside = database.readsBeside!
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from beside_rows`.execute(beside)).rows[0].n)
    await sql`insert into beside_rows (id, label, amount) values (1, 'committed', 5)`.execute(database.db)
    assert.is(await count(), 1)
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into beside_rows (id, label, amount) values (2, 'open', 7)`.execute(trx)
      assert.is(await count(), 1, 'the open transaction is not seen')
    })
    assert.is(await count(), 2, 'seen once committed')
    const rows = (await sql<{ id: number; label: string; amount: number | string }>`select id, label, amount from beside_rows where id = ${2}`.execute(beside)).rows
    assert.equal(rows.map((r) => [Number(r.id), r.label, Number(r.amount)]), [[2, 'open', 7]])
  })

  test('many statements under way at once each get their own rows', async ({ database }) => {
    await sql`insert into beside_rows (id, label, amount) select g, 'row ' || g, g * 10 from (select 100 + a.x * 10 + b.x as g from (select 0 as x union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9) a, (select 0 as x union all select 1 union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9) b) g`.execute(database.db)
    const ids = Array.from({ length: 100 }, (_, i) => 100 + i)
    const answers = await Promise.all(ids.map((id) => sql<{ label: string }>`select label from beside_rows where id = ${id}`.execute(database.readsBeside!)))
    assert.equal(answers.map((a) => a.rows.map((r) => r.label)), ids.map((id) => [`row ${id}`]))
  })

  test('a failing statement is rejected with the database error, and the connection goes on', async ({ database }) => {
    const error = await sql`select no_such_column from beside_rows`.execute(database.readsBeside!).then(
      () => null,
      (e: Error & { code?: string }) => e,
    )
    assert.ok(error, 'rejected')
    assert.match(error!.message, /no_such_column/)
    assert.ok(error!.code, 'the database error code is kept')
    const after = await sql<{ n: number }>`select count(*) as n from beside_rows`.execute(database.readsBeside!)
    assert.ok(Number(after.rows[0].n) > 0)
  })

  if (name === 'sqlite-file') {
    test('the reads connection of a SQLite file refuses to write, and writes nothing', async ({ database }) => {
      const error = await sql`insert into beside_rows (id, label, amount) values (999, 'written beside', 1)`.execute(database.readsBeside!).then(
        () => null,
        (e: Error) => e,
      )
      assert.ok(error, 'refused')
      const rows = await sql<{ n: number }>`select count(*) as n from beside_rows where id = 999`.execute(database.db)
      assert.is(Number(rows.rows[0].n), 0)
    })
  }

  test.run()
}
