import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'
import { activeTargets, connectBare, openTarget, type Target } from '../support/targets.js'

/**
 * `DatabaseDialect.rowsByIds`: the rows whose ID column is one of a list and that meet a
 * condition, selected from as a subquery (a billing run's ledger read by its features). Every
 * row of every listed ID, none of another, a listed ID twice gives its rows once, and IDs past
 * 2^53 (SQLite hands them over as BigInts) are found.
 */

const huge = 2n ** 62n + 5n

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database }>(`rows by a list of IDs [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = await connectBare(ctx.target)
    const { db } = ctx.database
    await sql`create table by_ids_probe (id bigint primary key, "ownerID" bigint, kind text)`.execute(db)
    await sql`create index by_ids_probe_owner on by_ids_probe ("ownerID", kind)`.execute(db)
    const rows: [number, bigint, string | null][] = [
      [1, 10n, 'a'],
      [2, 10n, null],
      [3, 11n, 'b'],
      [4, 12n, 'c'],
      [5, huge, 'd'],
      [6, 10n, 'e'],
    ]
    for (const [id, owner, kind] of rows) await sql`insert into by_ids_probe (id, "ownerID", kind) values (${id}, ${owner}, ${kind})`.execute(db)
  })
  test.after(async ({ database, target }) => {
    await database.close()
    await target.dispose()
  })

  const read = async (database: Database, owners: readonly (string | number | bigint)[]) => {
    const from = database.dialect.rowsByIds<{ id: unknown; ownerID: unknown; kind: string | null }>('by_ids_probe', 'ownerID', owners, sql`"kind" is not null`)
    const { rows } = await sql<{ id: unknown; ownerID: unknown }>`select "t"."id", cast("t"."ownerID" as text) as "ownerID" from ${from} as "t" order by "t"."id"`.execute(database.db)
    return rows.map((r) => `${r.id}:${r.ownerID}`)
  }

  test('every row of each listed ID that meets the condition, once', async ({ database }) => {
    const encode = (id: string) => database.dialect.encodeId(id)
    assert.equal(await read(database, ['10', '12', '12', '99'].map(encode)), ['1:10', '4:12', '6:10'])
    assert.equal(await read(database, [encode(huge.toString()), encode('11')]), ['3:11', `5:${huge}`])
    assert.equal(await read(database, []), [])
  })

  test.run()
}
