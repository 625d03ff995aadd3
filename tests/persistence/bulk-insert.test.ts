import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CompiledQuery, sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'
import type { RowWriter } from '../../adapters/persistence/dialect/bulk-rows.js'
import { sqliteDialect } from '../../adapters/persistence/dialect/sqlite-dialect.js'
import { EACH_ROW } from '../../adapters/persistence/statement-cache.js'
import { insertColumns } from '../../adapters/persistence/insert-rows.js'
import { activeTargets, connectBare, openTarget, type Target } from '../support/targets.js'

/**
 * `DatabaseDialect.bulkInsert` stores the same rows whether they come as arrays or from a row
 * writer, across statement boundaries (SQLite: 10,000 rows of 3 columns a statement; Postgres:
 * 10,000 rows a chunk). `encodeId` stores every ID exactly,
 * from small ones through 15 and 16 digits to 2^63 - 1, and refuses what is not a number.
 */

const ROWS = 25_001
const columns = (db: Database) => [
  { name: 'id', type: db.dialect.idRefType },
  { name: 'label', type: 'text' as const },
  { name: 'amount', type: db.dialect.types.bigint },
]
const labelOf = (i: number) => (i % 7 === 0 ? null : `row ${i}`)
const amountOf = (i: number) => BigInt(i) * 1_000_003n - 5_000_000n

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database }>(`bulk inserts from arrays and from row writers [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = await connectBare(ctx.target)
    await sql`create table bulk_probe (id bigint primary key, label text, amount bigint not null)`.execute(ctx.database.db)
  })
  test.before.each(async ({ database }) => {
    await sql`delete from bulk_probe`.execute(database.db)
  })
  test.after(async ({ database, target }) => {
    await database.close()
    await target.dispose()
  })

  /** Every stored row as text, in ID order. */
  const stored = async (database: Database) =>
    (
      await sql<{ id: unknown; label: string | null; amount: unknown }>`select id, label, amount from bulk_probe order by id`.execute(database.db)
    ).rows.map((r) => `${String(r.id)}|${r.label}|${String(r.amount)}`)
  const expected = Array.from({ length: ROWS }, (_, k) => `${k + 1}|${labelOf(k + 1)}|${amountOf(k + 1)}`)

  test('arrays and a row writer store the same rows, over several statements', async ({ database }) => {
    const d = database.dialect
    const arrays = Array.from({ length: ROWS }, (_, k) => [d.encodeId(String(k + 1)), labelOf(k + 1), d.encodeBigint(amountOf(k + 1))])
    await d.bulkInsert(database.db, 'bulk_probe', columns(database), arrays)
    assert.equal(await stored(database), expected)

    await sql`delete from bulk_probe`.execute(database.db)
    const writer: RowWriter = {
      length: ROWS,
      write(i, into, at) {
        into[at] = d.encodeId(String(i + 1))
        into[at + 1] = labelOf(i + 1)
        into[at + 2] = d.encodeBigint(amountOf(i + 1))
      },
    }
    await d.bulkInsert(database.db, 'bulk_probe', columns(database), writer)
    assert.equal(await stored(database), expected)
  })

  test('with `send`, every statement is sent before the first is answered, and the insert settles with their answers', async ({ database }) => {
    const d = database.dialect
    const arrays = Array.from({ length: ROWS }, (_, k) => [d.encodeId(String(k + 1)), labelOf(k + 1), d.encodeBigint(amountOf(k + 1))])
    let sent = 0
    let answered = 0
    const inserted = d.bulkInsert(database.db, 'bulk_probe', columns(database), arrays, {
      send: (query) => {
        sent++
        assert.is(answered, 0, 'sent before any answer')
        return database.db.executeQuery(query).finally(() => answered++)
      },
    })
    assert.ok(sent >= 2, `several statements sent at once (${sent})`)
    await inserted
    assert.is(answered, sent, 'settled once every statement is answered')
    assert.equal(await stored(database), expected)
  })

  test('insertColumns stores rows given as columns, skips conflicts and counts only the rows it stored', async ({ database }) => {
    // connect()'s dialect (SQLite: a one-row statement run for each row; Postgres: column
    // arrays), and on SQLite also an embedder's (multi-row VALUES lists).
    const dialects = database.dialect.name === 'sqlite' ? [database.dialect, sqliteDialect] : [database.dialect]
    for (const d of dialects) {
      await sql`delete from bulk_probe`.execute(database.db)
      const ids = Array.from({ length: ROWS }, (_, k) => k + 1)
      const columnsOf = (list: number[]) => [list.map((i) => d.encodeId(String(i))), list.map(labelOf), list.map((i) => d.encodeBigint(amountOf(i)))]
      const types = columns(database).map((c) => c.type)
      const names = ['id', 'label', 'amount']
      assert.is(await insertColumns(database.db, d, 'bulk_probe', names, columnsOf(ids), ROWS, { doNothingOn: ['id'], types }), ROWS)
      assert.equal(await stored(database), expected)
      // Ten rows stored already and one new: only the new one is stored and counted.
      const again = [...ids.slice(0, 10), ROWS + 1]
      assert.is(await insertColumns(database.db, d, 'bulk_probe', names, columnsOf(again), again.length, { doNothingOn: ['id'], types }), 1)
      assert.equal(await stored(database), [...expected, `${ROWS + 1}|${labelOf(ROWS + 1)}|${amountOf(ROWS + 1)}`])
      // No rows is no statement (a VALUES list of none is not SQL).
      assert.is(await insertColumns(database.db, d, 'bulk_probe', names, columnsOf([]), 0, { doNothingOn: ['id'], types }), 0)
    }
  })

  test('text that an array literal would split, trim, unescape or read as null is stored as it was', async ({ database }) => {
    // Postgres takes each column as the text of an array: elements go in unquoted when they can.
    const labels = ['', ' ', ' lead', 'trail ', 'in side', 'NULL', 'null', 'Null', 'nulls', 'a,b', '{x}', '}', 'q"uote', 'back\\slash', '\\', 'tab\there', 'new\nline', 'cr\r', 'ünï', 'plain', '2026-01-14T10:00:00.000Z', '07700 900000', "o'brien", '[1:2]', 'a;b']
    const d = database.dialect
    const types = columns(database).map((c) => c.type)
    const ids = labels.map((_, k) => d.encodeId(String(k + 1)))
    const amounts = labels.map(() => d.encodeBigint(0n))
    assert.is(await insertColumns(database.db, d, 'bulk_probe', ['id', 'label', 'amount'], [ids, labels, amounts], labels.length, { types }), labels.length)
    const { rows } = await sql<{ label: string | null }>`select label from bulk_probe order by id`.execute(database.db)
    assert.equal(rows.map((r) => r.label), labels)
  })

  if (name !== 'postgres') {
    test('a one-row statement run for each row refuses parameters that are not its columns of one length, and stores nothing', async ({ database }) => {
      await sql`delete from bulk_probe`.execute(database.db)
      const text = `${EACH_ROW}insert into bulk_probe (id, label, amount) values (?, ?, ?)`
      for (const parameters of [[1, 'a', 10, 2, 'b'], [[1, 2], ['a', 'b']], [[1, 2, 3], ['a', 'b'], [10, 20, 30]], [[1, 2], ['a', 'b'], []]]) {
        await database.db.executeQuery(CompiledQuery.raw(text, parameters)).then(
          () => assert.unreachable(`accepted ${JSON.stringify(parameters)} for 3 columns`),
          (error: Error) => assert.match(error.message, /are not 3 columns of one length/),
        )
      }
      assert.equal(await stored(database), [])
    })

    test('a one-row statement run for each row binds a column of one value in every row', async ({ database }) => {
      await sql`delete from bulk_probe`.execute(database.db)
      const text = `${EACH_ROW}insert into bulk_probe (id, label, amount) values (?, ?, ?)`
      const { numAffectedRows } = await database.db.executeQuery(CompiledQuery.raw(text, [[1, 2, 3], ['same'], [10, 20, 30]]))
      assert.is(Number(numAffectedRows), 3)
      assert.equal(await stored(database), ['1|same|10', '2|same|20', '3|same|30'])
    })
  }

  test('columns whose rows hold one value are stored in every row', async ({ database }) => {
    // insertColumns sends such a column as its one value where the dialect binds it row by row.
    const d = database.dialect
    const types = columns(database).map((c) => c.type)
    const ids = [1, 2, 3, 4].map((i) => d.encodeId(String(i)))
    const same = ['one', 'one', 'one', 'one']
    const amounts = [7n, 7n, 7n, 7n].map((a) => d.encodeBigint(a))
    assert.is(await insertColumns(database.db, d, 'bulk_probe', ['id', 'label', 'amount'], [ids, same, amounts], 4, { types }), 4)
    const { rows } = await sql<{ label: string | null; amount: unknown }>`select label, amount from bulk_probe order by id`.execute(database.db)
    assert.equal(rows.map((r) => `${r.label}|${String(r.amount)}`), ['one|7', 'one|7', 'one|7', 'one|7'])
  })

  test('rows alike in every column are each stored, not one for all', async ({ database }) => {
    await sql`create table bulk_alike (label text, amount bigint)`.execute(database.db)
    try {
      const d = database.dialect
      const types = [columns(database).find((c) => c.name === 'label')!.type, columns(database).find((c) => c.name === 'amount')!.type]
      const amounts = [7n, 7n, 7n].map((a) => d.encodeBigint(a))
      assert.is(await insertColumns(database.db, d, 'bulk_alike', ['label', 'amount'], [['one', 'one', 'one'], amounts], 3, { types }), 3)
      const { rows } = await sql<{ n: unknown }>`select count(*) as n from bulk_alike`.execute(database.db)
      assert.is(Number(rows[0].n), 3)
    } finally {
      await sql`drop table bulk_alike`.execute(database.db)
    }
  })

  test('an ID is stored exactly at every length, and junk is refused', async ({ database }) => {
    const d = database.dialect
    const ids = ['1', '-1', '0', '999999999999999', '-999999999999999', '1000000000000000', '9007199254740993', '9223372036854775807', '-9223372036854775808']
    const rows = ids.map((id, k) => [d.encodeId(id), `id ${k}`, d.encodeBigint(0n)])
    await d.bulkInsert(database.db, 'bulk_probe', columns(database), rows)
    const { rows: back } = await sql<{ id: unknown }>`select cast(id as text) as id from bulk_probe`.execute(database.db)
    assert.equal(back.map((r) => String(r.id)).sort(), [...ids].sort())
    for (const junk of ['abc', '1.5', '12x']) assert.throws(() => d.encodeId(junk), undefined, `encodeId(${junk})`)
  })

  test.run()
}
