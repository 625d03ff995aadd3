import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { Condition, ListQuery, Parents } from '../../core/ports/resource-repository.js'
import type { WireItem } from '../../core/ports/list-json.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * Children read for parents given as a query (the page a list returns, or the children of such
 * a page) are the children of exactly the parents that query finds, in ID order: the same as
 * reading them for the parents' IDs after the parents were read. Expansions rely on it to read
 * a page and its children at the same time.
 */

const active: Condition = { op: 'eq', column: 'isDropped', value: false }
const names = ['Ash', 'Birch', 'Cedar']

/** A page query: any filter on the name, any paging. */
const pageQuery = (customerIds: readonly string[]) =>
  fc.record({
    where: fc.oneof(fc.constant([]), fc.constantFrom(...names).map((lastname): Condition[] => [{ op: 'eq', column: 'lastname', value: lastname }])),
    idAfter: fc.option(fc.constantFrom(...customerIds), { nil: undefined }),
    offset: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    limit: fc.integer({ min: 0, max: 8 }),
  }) as fc.Arbitrary<ListQuery>

const wireView = (items: readonly WireItem[]) => items.map((w) => ({ id: w.id, key: w.key, json: Buffer.from(w.json).toString() }))

function assertIdOrder(items: readonly { id: string }[]): void {
  for (let i = 1; i < items.length; i++) assert.ok(BigInt(items[i - 1].id) < BigInt(items[i].id), `${items[i - 1].id} before ${items[i].id}`)
}

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore; customerIds: string[] }>(`children of parents given as a query [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    await migrate(ctx.database, ctx.target.schema)
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName)
    // Customers with numbers and services (some dropped) and features on all three, created
    // interleaved so that a customer's children do not have consecutive IDs.
    const r = (n: 'customers' | 'numbers' | 'services' | 'features') => ctx.store.repository(n)
    const customers = []
    for (let i = 0; i < 14; i++) customers.push(await r('customers').insert({ lastname: names[i % 3], isDropped: i % 5 === 4 }))
    ctx.customerIds = customers.map((c) => c.id)
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of customers.entries()) {
        if ((i + round) % 4 === 3) continue
        const customerID = c.id
        const number = await r('numbers').insert({ customerID, number: `01632 9${i}${round}`, isDropped: (i + round) % 3 === 0 })
        const service = await r('services').insert({ customerID, isDropped: (i * round) % 4 === 1 })
        await r('features').insert({ customerID, numberID: number.id, isDropped: round === 1 })
        await r('features').insert({ customerID, serviceID: service.id, isDropped: i % 2 === 0 })
        await r('features').insert({ customerID, isDropped: round === 2 })
      }
    }
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  test('children of a page: the same rows, keys and JSON as for the IDs of the page read first', async ({ store, customerIds }) => {
    await fc.assert(
      fc.asyncProperty(pageQuery(customerIds), fc.constantFrom('numbers', 'services', 'features'), fc.boolean(), async (query, kind, onlyActive) => {
        const page = (await store.listJson.list('customers', query)).map((c) => c.id)
        const where = onlyActive ? [active] : []
        const byQuery = await store.listJson.listIn(kind, 'customerID', { resource: 'customers', page: query }, where)
        assert.equal(wireView(byQuery), wireView(await store.listJson.listIn(kind, 'customerID', page, where)))
        assertIdOrder(byQuery)
        const items = await store.repository(kind).listIn('customerID', { resource: 'customers', page: query }, where)
        assert.equal(items, await store.repository(kind).listIn('customerID', page, where))
      }),
      { numRuns: 60 },
    )
  })

  test("features of a page's numbers or services, found through their own conditions", async ({ store, customerIds }) => {
    await fc.assert(
      fc.asyncProperty(pageQuery(customerIds), fc.constantFrom('numbers', 'services'), fc.boolean(), fc.boolean(), async (query, kind, activeParents, activeFeatures) => {
        const parentWhere = activeParents ? [active] : []
        const featureWhere = activeFeatures ? [active] : []
        const column = kind === 'numbers' ? 'numberID' : 'serviceID'
        const page = (await store.listJson.list('customers', query)).map((c) => c.id)
        const parentIds = (await store.listJson.listIn(kind, 'customerID', page, parentWhere)).map((p) => p.id)
        const parents: Parents = { resource: kind, where: parentWhere, column: 'customerID', parents: { resource: 'customers', page: query } }
        const features = await store.listJson.listIn('features', column, parents, featureWhere)
        assert.equal(wireView(features), wireView(await store.listJson.listIn('features', column, parentIds, featureWhere)))
        assertIdOrder(features)
      }),
      { numRuns: 40 },
    )
  })

  test('an empty page has no children; listed IDs still work alone', async ({ store, customerIds }) => {
    const none: ListQuery = { where: [], idAfter: customerIds.at(-1), limit: 10 }
    assert.equal(await store.listJson.listIn('numbers', 'customerID', { resource: 'customers', page: none }), [])
    assert.equal(await store.repository('numbers').listIn('customerID', []), [])
  })

  test.run()
}
