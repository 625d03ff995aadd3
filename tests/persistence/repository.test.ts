import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { isBillingError } from '../../core/errors.js'
import type { Condition } from '../../core/ports/resource-repository.js'
import { formatMoney, fromUnits } from '../../core/money/money.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore }>(`repository contract [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    await migrate(ctx.database, ctx.target.schema)
    await migrate(ctx.database, ctx.target.schema) // a second run is a no-op
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName)
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  test('insert and get round-trip every wire type exactly', async ({ store }) => {
    const repo = store.repository('customers')
    const item = await repo.insert({
      firstnames: "O'Brien; DROP TABLE customers; --",
      employees: 12.5,
      turnover: fromUnits(999_999_999_999_999n),
      netAssets: fromUnits(-1n),
      contractStartDate: '2024-02-29' as never,
      customerGroups: ['VIP', 'Direct'],
      isDropped: false,
      isBillable: true,
      createdStamp: '2026-01-01T00:00:00.000Z' as never,
    })
    const got = (await repo.get(item.id))!
    assert.is(got.firstnames, "O'Brien; DROP TABLE customers; --")
    assert.is(got.employees, 12.5)
    assert.is(formatMoney(got.turnover as never), '99999999999.9999')
    assert.is(got.netAssets, -1n)
    assert.is(got.contractStartDate, '2024-02-29')
    assert.equal(got.customerGroups, ['VIP', 'Direct'])
    assert.is(got.isDropped, false)
    assert.is(got.isBillable, true)
    assert.is(got.email, null)
    assert.is(await repo.get('999999999'), undefined)
    assert.is(await repo.get('abc'), undefined)
  })

  test('money survives storage exactly for any amount in range (property)', async ({ store }) => {
    const repo = store.repository('customers')
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }), async (units) => {
        const item = await repo.insert({ creditLimit: fromUnits(units) })
        return (await repo.get(item.id))!.creditLimit === units
      }),
      { numRuns: 50 },
    )
  })

  test('unique fields are enforced by the database as unique_taken', async ({ store }) => {
    const repo = store.repository('customers')
    await repo.insert({ accountNumber: 'UNIQ' })
    try {
      await repo.insert({ accountNumber: 'UNIQ' })
      assert.unreachable('should have failed')
    } catch (e) {
      assert.ok(isBillingError(e) && e.code === 'unique_taken', String(e))
      assert.ok((e as Error).message.includes('accountNumber'))
    }
    await repo.insert({ accountNumber: null })
    await repo.insert({ accountNumber: null }) // several unset values are fine
  })

  test('list: conditions, ID order, idAfter, offset, limit; listIn fetches children in one call', async ({ store }) => {
    const customers = store.repository('customers')
    const a = await customers.insert({ lastname: 'ListA', isDropped: false })
    const b = await customers.insert({ lastname: 'ListB', isDropped: true })
    const rows = await customers.list({ where: [{ op: 'eq', column: 'isDropped', value: true }], limit: 1000 })
    assert.ok(rows.some((r) => r.id === b.id) && !rows.some((r) => r.id === a.id))
    const after = await customers.list({ where: [], idAfter: a.id, limit: 10 })
    assert.equal(after.map((r) => r.id), [b.id])
    const numbers = store.repository('numbers')
    const n1 = await numbers.insert({ customerID: a.id, number: '1' })
    const n2 = await numbers.insert({ customerID: b.id, number: '2' })
    const both = await numbers.listIn('customerID', [a.id, b.id])
    assert.equal(both.map((n) => n.id), [n1.id, n2.id])
    assert.is(await numbers.removeWhere([{ op: 'eq', column: 'customerID', value: a.id }]), 1)
    assert.equal((await numbers.listIn('customerID', [a.id, b.id])).map((n) => n.id), [n2.id])
  })

  test('notIn keeps rows holding none of the values, a null column included; with no values it keeps every row', async ({ store }) => {
    const [a, b] = [await store.repository('customers').insert({ lastname: 'NotInA' }), await store.repository('customers').insert({ lastname: 'NotInB' })]
    const numbers = store.repository('numbers')
    const made = [await numbers.insert({ customerID: a.id, number: 'n1' }), await numbers.insert({ customerID: b.id, number: 'n2' }), await numbers.insert({ number: 'n3' })].map((n) => n.id)
    const kept = async (values: string[]) =>
      (await numbers.list({ where: [{ op: 'in', column: 'id', values: made }, { op: 'notIn', column: 'customerID', values }], limit: 10 })).map((n) => n.number)
    assert.equal(await kept([a.id]), ['n2', 'n3'])
    assert.equal(await kept([a.id, b.id]), ['n3'])
    assert.equal(await kept([]), ['n1', 'n2', 'n3'])
  })

  test('in, notIn and listIn take more values than a statement binds as parameters (SQLite 32,766, Postgres 65,535)', async ({ store }) => {
    const [a, b] = [await store.repository('customers').insert({ lastname: 'LongA' }), await store.repository('customers').insert({ lastname: 'LongB' })]
    const numbers = store.repository('numbers')
    const made = [await numbers.insert({ customerID: a.id, number: 'l1' }), await numbers.insert({ customerID: b.id, number: 'l2' }), await numbers.insert({ number: 'l3' })].map((n) => n.id)
    const others = Array.from({ length: 70_000 }, (_, i) => String(900_000_000 + i))
    const listed = async (where: Condition[]) => (await numbers.list({ where, limit: 10 })).map((n) => n.number)
    assert.equal(await listed([{ op: 'in', column: 'id', values: [...others, ...made] }, { op: 'notIn', column: 'customerID', values: [...others, a.id] }]), ['l2', 'l3'])
    assert.equal(await listed([{ op: 'in', column: 'id', values: made }, { op: 'in', column: 'customerID', values: [b.id, ...others] }]), ['l2'])
    assert.equal((await numbers.listIn('customerID', [...others, a.id, b.id])).map((n) => n.number), ['l1', 'l2'])
    // A computed column (a call's transaction, derived from the charges) and a sum, as the portal's calls page asks.
    const calls = store.repository('calls')
    assert.equal(await calls.list({ where: [{ op: 'in', column: 'transactionID', values: others }], limit: 10 }), [])
    assert.is(await calls.sum('cost', [{ op: 'eq', column: 'customerID', value: a.id }, { op: 'notIn', column: 'numberID', values: others }]), 0n)
  })

  test('a failed transaction leaves nothing behind', async ({ store }) => {
    const before = (await store.repository('customers').list({ where: [], limit: 1000 })).length
    try {
      await store.transaction(async (tx) => {
        await tx.repository('customers').insert({ lastname: 'Rolled back' })
        throw new Error('abort')
      })
    } catch {
      // expected
    }
    assert.is((await store.repository('customers').list({ where: [], limit: 1000 })).length, before)
  })

  test.run()
}
