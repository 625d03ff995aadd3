import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { connect, wrapKysely, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { Field } from '../../core/fields/field.js'
import type { Values } from '../../core/fields/item.js'
import type { ResourceName } from '../../core/fields/resource.js'
import { isStorableText } from '../../core/fields/storable-text.js'
import { toWireJson } from '../../core/fields/wire-json.js'
import { fromUnits } from '../../core/money/money.js'
import { valueOfType } from '../support/field-arbitraries.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * The JSON a database writes for a list and for GET of one item (ListJson's list, listIn and
 * get) is the same JSON value as toWireJson of the item read by its repository, for any stored values: every resource,
 * every wire type, awkward text and numbers, computed fields (a customer's balance).
 */

const text = fc
  .oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\n', '\t', '\u0001', '\u007f', '\u2028', '😀', "O'Brien", '</script>'))
  .filter(isStorableText)

function valueOf(f: Field): fc.Arbitrary<unknown> {
  // Flags are stored NOT NULL; other ID columns (a transaction's feature) are left unset, out of
  // the ledger's unique keys.
  if (f.type === 'boolean') return fc.boolean()
  if (f.type === 'id') return fc.constant(null)
  return fc.oneof({ weight: 4, arbitrary: valueOfType(f, text) }, fc.constant(null))
}

/** Columns that reference another table get that table's row (or null where it may be unset). */
const references: Record<string, ResourceName> = {
  customerID: 'customers',
  tariffID: 'tariffs',
  fixedFeeTariffID: 'fixedFeeTariffs',
  numberID: 'numbers',
  serviceID: 'services',
}

const decoder = new TextDecoder('utf-8', { fatal: true })
/** A wire item's bytes as text (strictly UTF-8), or a text as it is. */
const textOf = (json: Uint8Array | string): string => (typeof json === 'string' ? json : decoder.decode(json))
const parsed = (json: Uint8Array | string): unknown => JSON.parse(textOf(json))

/** The two texts are the same JSON value; the message names the members that differ. */
function sameJson(actual: Uint8Array, expected: string): void {
  const [a, b] = [parsed(actual) as Record<string, unknown>, parsed(expected) as Record<string, unknown>]
  const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
  assert.equal(a, b, differ.map((k) => `${k}: ${JSON.stringify(a[k])} vs ${JSON.stringify(b[k])}`).join('; '))
}

/** One item's JSON as a list of its ID writes it. */
async function listedJson(store: KyselyStore, kind: ResourceName, id: string): Promise<Uint8Array | undefined> {
  const [listed] = await store.listJson.list(kind, { where: [{ op: 'eq', column: 'id', value: id }], limit: 2 })
  return listed?.json
}

for (const name of activeTargets()) {
  const test = suite<{ target: Target; database: Database; store: KyselyStore; parents: Map<string, string> }>(`list JSON written by the database [${name}]`)
  test.before(async (ctx) => {
    ctx.target = openTarget(name)
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    await migrate(ctx.database, ctx.target.schema)
    ctx.store = new KyselyStore(ctx.database.db, ctx.database.dialect, resourcesByName)
    ctx.parents = new Map()
    for (const [column, resource] of Object.entries(references)) {
      const owner = resource === 'customers' ? {} : resource === 'numbers' || resource === 'services' ? { customerID: ctx.parents.get('customerID')! } : {}
      ctx.parents.set(column, (await ctx.store.repository(resource).insert(owner as Values)).id)
    }
  })
  test.after(async (ctx) => {
    await ctx.database.close()
    await ctx.target.dispose()
  })

  let unique = 0
  // Features' computed fields come from the ledger in JavaScript, which reads their dates and
  // charge history: their lists are toWireJson of the items, tested with the HTTP suites.
  for (const resource of [...resourcesByName.values()].filter((r) => r.name !== 'features')) {
    const stored = resource.columns.filter((f) => f.name !== 'id' && !f.digitsOf)
    const values = fc.record(Object.fromEntries(stored.map((f) => [f.name, valueOf(f)]))) as fc.Arbitrary<Values>
    test(`${resource.name}: list, listIn and get give toWireJson's JSON for any stored values`, async ({ store, parents }) => {
      const repo = store.repository(resource.name)
      await fc.assert(
        fc.asyncProperty(values, async (v) => {
          const row: Values = { ...v }
          for (const f of stored) {
            if ((f.unique || f.uniqueWith) && row[f.name] !== null) row[f.name] = `u${++unique}`
            if (references[f.name] && resource.name !== references[f.name]) row[f.name] = parents.get(f.name)!
          }
          const item = await repo.insert(row)
          const expected = toWireJson(resource, (await repo.get(item.id))!)
          const [listed] = await store.listJson.list(resource.name, { where: [{ op: 'eq', column: 'id', value: item.id }], limit: 2 })
          assert.equal(listed.id, item.id)
          sameJson(listed.json, expected)
          const [child] = await store.listJson.listIn(resource.name, 'id', [item.id])
          sameJson(child.json, expected)
          assert.is(child.key, item.id)
          const one = await store.listJson.get(resource.name, item.id)
          assert.is(one?.id, item.id)
          sameJson(one!.json, expected)
        }),
        { numRuns: 15, includeErrorInReport: true },
      )
    })
  }

  test('any double is written as a JSON number of the same value; short ones with their short digits', async ({ store }) => {
    const repo = store.repository('customers')
    await fc.assert(
      fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true }), async (n) => {
        const item = await repo.insert({ employees: n })
        const json = textOf((await listedJson(store, 'customers', item.id))!)
        // === holds 0 and -0 equal, as toWireJson writes both as 0.
        assert.ok((parsed(json) as Record<string, number>).employees === n, `${n} written as ${/"employees":([^,]*)/.exec(json)?.[1]}`)
        // A GET reads the item's columns packed (ReadsDialect.packedRow): the double comes back the same.
        assert.ok((await repo.get(item.id))!.employees === n, `${n} read back as ${(await repo.get(item.id))!.employees}`)
      }),
      { numRuns: 300 },
    )
    for (const n of [0.1, 12.5, 3, 1e21, 0.30000000000000004]) {
      const item = await repo.insert({ employees: n })
      assert.ok(textOf((await listedJson(store, 'customers', item.id))!).includes(`"employees":${JSON.stringify(n)}`), String(n))
    }
  })

  test("customers: the balance is the ledger's sum, written as the API writes money", async ({ store }) => {
    const customer = await store.repository('customers').insert({ accountNumber: 'BAL-1' })
    const transactions = store.repository('transactions')
    for (const [amount, vat] of [[123_400n, 24_680n], [-5n, 0n], [99_999_999_999_999n, 1n]]) {
      await transactions.insert({ customerID: customer.id, amount: fromUnits(amount), VATAmount: fromUnits(vat), transactionType: 'Manual' })
    }
    const json = (await listedJson(store, 'customers', customer.id))!
    assert.is((parsed(json) as Record<string, unknown>).balance, 10000000014.8075)
    sameJson(json, toWireJson(store.repository('customers').resource, (await store.repository('customers').get(customer.id))!))
    assert.is(await listedJson(store, 'customers', '999999999'), undefined)
  })

  test('get of an ID with no row, or of what is no ID, is undefined; each resource is read by its own compiled statement', async ({ store }) => {
    for (const id of ['999999999', '0', 'abc', '1 or 1=1', '']) assert.is(await store.listJson.get('customers', id), undefined, id)
    const customer = await store.repository('customers').insert({ accountNumber: 'GET-1' })
    const number = await store.repository('numbers').insert({ customerID: customer.id, number: '01632 960009' })
    assert.is((parsed((await store.listJson.get('numbers', number.id))!.json) as { number: string }).number, '01632 960009')
    assert.is((parsed((await store.listJson.get('customers', customer.id))!.json) as { accountNumber: string }).accountNumber, 'GET-1')
  })

  test('listIn gives each child its parent as key, and keeps the conditions', async ({ store }) => {
    const customer = await store.repository('customers').insert({ accountNumber: 'KEY-1' })
    const numbers = store.repository('numbers')
    const a = await numbers.insert({ customerID: customer.id, number: '01632 960001', isDropped: false })
    await numbers.insert({ customerID: customer.id, number: '01632 960002', isDropped: true })
    const active = await store.listJson.listIn('numbers', 'customerID', [customer.id], [{ op: 'eq', column: 'isDropped', value: false }])
    assert.equal(active.map((w) => [w.id, w.key]), [[a.id, customer.id]])
    assert.equal(await store.listJson.listIn('numbers', 'customerID', []), [])
  })

  test('texts of every size and script: each item whole, whatever bytes were written before it', async ({ store }) => {
    const repo = store.repository('customers')
    // Postgres writes each item's bytes into a shared slab of 1 MB: items of up to 300 kB,
    // multi-byte characters, cross the slab's end and the size it copies alone.
    const pieces = ['a', 'é', '€', '😀', '"\\\n']
    const made: string[] = []
    for (let i = 0; i < 24; i++) {
      const text = pieces[i % pieces.length].repeat([10, 3_000, 40_000, 120_000][i % 4] + i)
      made.push((await repo.insert({ firstnames: text, lastname: `slab-${i}` })).id)
    }
    const listed = await store.listJson.list('customers', { where: [{ op: 'in', column: 'id', values: made }], limit: 100 })
    assert.equal(listed.map((w) => w.id), made)
    for (const w of listed) sameJson(w.json, toWireJson(repo.resource, (await repo.get(w.id))!))
    const children = await store.listJson.listIn('customers', 'id', made)
    for (const [i, w] of children.entries()) assert.equal(Buffer.from(w.json), Buffer.from(listed[i].json))
  })

  if (name === 'postgres') {
    test("an embedder's own pool (JSON as text, not bytes) gets the same JSON", async ({ target, store }) => {
      const pool = new pg.Pool({ connectionString: target.databaseUrl, options: `-c search_path=${target.schema}` })
      const own = wrapKysely(new Kysely<{ orders: { id: number } }>({ dialect: new PostgresDialect({ pool }) }), 'postgres')
      try {
        const theirs = new KyselyStore(own.db, own.dialect, resourcesByName)
        for (const kind of ['customers', 'numbers'] as const) {
          const page = await store.listJson.list(kind, { where: [], limit: 50 })
          assert.ok(page.length > 0)
          const same = await theirs.listJson.list(kind, { where: [], limit: 50 })
          assert.ok(same.every((w) => w.json instanceof Uint8Array))
          assert.equal(same.map((w) => textOf(w.json)), page.map((w) => textOf(w.json)))
          assert.equal(textOf((await listedJson(theirs, kind, page[0].id))!), textOf(page[0].json))
        }
      } finally {
        await own.db.destroy()
      }
    })
  }

  test.run()
}
