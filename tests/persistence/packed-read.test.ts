import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'
import type { Field } from '../../core/fields/field.js'
import { isStorableText } from '../../core/fields/storable-text.js'
import { activeTargets, connectBare, openTarget, type Target } from '../support/targets.js'

/**
 * A bulk read's packed columns (`DatabaseDialect.packedRead`: SQLite's JSON array) give back
 * every stored value exactly: integers up to 2^63 (past 2^53 they go as text), any text, and no
 * reals (JSON would write them with 15 digits). Postgres packs nothing.
 */

const fields: Field[] = [
  { name: 'id', type: 'id' },
  { name: 'amount', type: 'currency' },
  { name: 'flag', type: 'boolean' },
  { name: 'count', type: 'number' },
  { name: 'label', type: 'text' },
  { name: 'day', type: 'date' },
]

const big = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const integer = fc.oneof(big, fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }), fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n) + 1n, -(2n ** 53n), -(2n ** 63n), 0n))
const text = fc
  .oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\n', '\u0000x', '\u2028', '😀', '[1,2]', 'null'))
  .filter(isStorableText)
const row = fc.record({
  amount: fc.option(integer, { nil: null }),
  flag: fc.constantFrom(0, 1),
  count: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
  label: fc.option(text, { nil: null }),
  day: fc.option(fc.constantFrom('2026-01-31', '1999-12-31'), { nil: null }),
})

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database }>(`packed bulk reads give back stored values exactly [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = await connectBare(ctx.target)
    await sql`create table packed_probe (id bigint primary key, amount bigint, flag integer not null, count double precision, label text, day text)`.execute(ctx.database.db)
  })
  test.after(async ({ database, target }) => {
    await database.close()
    await target.dispose()
  })

  test('what is packed, and each value unpacked', async ({ database }) => {
    const pack = database.dialect.packedRead('packed_probe', fields)
    if (database.dialect.name === 'postgres') {
      assert.is(pack, null)
      return
    }
    assert.ok(pack)
    assert.equal(
      pack.packed.map((f) => f.name),
      ['id', 'amount', 'flag', 'label', 'day'],
      'reals stay out of the pack',
    )
    let next = 2n ** 53n - 3n
    await fc.assert(
      fc.asyncProperty(row, fc.boolean(), async (r, hugeID) => {
        next += 1n
        const id = hugeID ? 2n ** 62n + next : next
        await sql`delete from packed_probe`.execute(database.db)
        await sql`insert into packed_probe (id, amount, flag, count, label, day) values (${id}, ${r.amount}, ${r.flag}, ${r.count}, ${r.label}, ${r.day})`.execute(database.db)
        const { rows } = await sql<{ packed: unknown }>`select ${pack.column} as packed from packed_probe`.execute(database.db)
        const [gotID, amount, flag, label, day] = pack.unpack(rows[0].packed)
        assert.is(String(gotID), String(id))
        assert.is(amount === null ? null : BigInt(amount as number | string), r.amount)
        assert.is(flag, r.flag)
        assert.is(label, r.label)
        assert.is(day, r.day)
      }),
      { numRuns: 300 },
    )
  })

  test.run()
}
