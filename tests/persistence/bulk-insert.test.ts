import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'
import type { RowWriter } from '../../adapters/persistence/dialect/bulk-rows.js'
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
