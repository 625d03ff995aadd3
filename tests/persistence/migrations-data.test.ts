import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Database } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets, connectBare, openTarget, type Target } from '../support/targets.js'

/** Migrations that move stored data, run on a database as the version before them left it. */
for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database }>(`migrations that move data [${name}]`)
  test.before.each(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = await connectBare(ctx.target)
  })
  test.after.each(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  test('0021 moves held credit beside the customers, a row for each customer holding some', async ({ target, database }) => {
    await migrate(database, target.schema, '0020-rating-lookup-indexes')
    const { db } = database
    const customer = (id: number, held: number) =>
      sql`insert into customers (id, "accountNumber", "createdStamp", "updatedStamp", "heldCredit") values (${id}, ${`ACC${id}`}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ${held})`.execute(db)
    await customer(1, 125_000)
    await customer(2, 0)
    await customer(3, 7)
    await migrate(database, target.schema)
    const rows = await sql<{ customerID: unknown; amount: unknown }>`select "customerID", amount from held_credits order by "customerID"`.execute(db)
    assert.equal(rows.rows.map((r) => [Number(r.customerID), Number(r.amount)]), [[1, 125_000], [3, 7]])
    const columns = await database.dialect.describeTable(db, 'customers')
    assert.not.ok(columns.columns.includes('heldCredit'), 'the column is gone')
    const store = new KyselyStore(db, database.dialect, resourcesByName)
    const read = async (id: string) => (await store.repository('customers').get(id))!.heldCredit
    assert.equal([await read('1'), await read('2'), await read('3')], [125_000n, 0n, 7n], 'as money: 12.5000, nothing, 0.0007')
  })

  test.run()
}
