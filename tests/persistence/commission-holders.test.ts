import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { commissionHolders } from '../../adapters/persistence/reports/commission-holders.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * `Books.commissionHolders`: every holder named as a feature's primary or secondary holder or a
 * customer's, each once, in order, whatever the page size: a run's statements of every holder
 * are read holder by holder from these pages (contract 16.3).
 */

const NAMES = ['Alice', 'Ben', 'Chloe', 'Dev', 'Emma', 'alice', 'Zoë', '']
const name = fc.option(fc.constantFrom(...NAMES), { nil: null })

for (const target of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore; customers: string[]; features: string[] }>(`commission holders, page by page [${target}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(target)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    await migrate(ctx.database, ctx.target.schema)
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName)
    ctx.customers = []
    ctx.features = []
    for (let i = 0; i < 4; i++) {
      const c = await ctx.store.repository('customers').insert({ lastname: `C${i}` })
      ctx.customers.push(c.id)
      for (let j = 0; j < 2; j++) ctx.features.push((await ctx.store.repository('features').insert({ customerID: c.id })).id)
    }
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  test('each name once, in order, none empty, for any page size', async ({ database, customers, features }) => {
    const { db, dialect } = database
    await fc.assert(
      fc.asyncProperty(
        fc.array(name, { minLength: customers.length, maxLength: customers.length }),
        fc.array(fc.tuple(name, name), { minLength: features.length, maxLength: features.length }),
        fc.integer({ min: 1, max: 4 }),
        async (customerNames, featureNames, size) => {
          for (const [i, id] of customers.entries()) await sql`update customers set "commissionHolder" = ${customerNames[i]} where id = ${dialect.encodeId(id)}`.execute(db)
          for (const [i, id] of features.entries()) {
            const [primary, secondary] = featureNames[i]
            await sql`update features set "commissionHolder" = ${primary}, "commissionHolderID2" = ${secondary} where id = ${dialect.encodeId(id)}`.execute(db)
          }
          const named = new Set([...customerNames, ...featureNames.flat()].filter((n): n is string => n !== null && n !== ''))
          // Both databases order text by code point here (SQLite's binary collation, the test database's C collation).
          const expected = [...named].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          const pages: (readonly string[])[] = []
          for await (const page of commissionHolders(db, size)) pages.push(page)
          assert.equal(pages.flat(), expected)
          assert.ok(pages.every((p) => p.length > 0 && p.length <= size))
        },
      ),
      { numRuns: 40 },
    )
  })

  test.run()
}
