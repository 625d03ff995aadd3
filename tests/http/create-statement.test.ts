import fc from 'fast-check'
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { toWireJson } from '../../core/fields/wire-json.js'
import type { Item } from '../../core/fields/item.js'
import { createItem } from '../../core/resources/resources.js'
import { fieldValue, toJsonText, type Json } from '../support/fuzz-bodies.js'
import { openHarness, type Harness } from '../support/harness.js'
import { sentInOrder } from '../support/sent-statements.js'
import { activeTargets } from '../support/targets.js'

/**
 * A customer's create on Postgres is one statement, autocommitted: the customer, its history
 * entry and its event (recorded-insert.ts), written before the insert from the customer as it
 * will be stored. What it answers, stores and records is what the create in a transaction (the
 * way it was made before, and still is inside a transaction and on SQLite) gives, byte for byte
 * but for the ID. On every database the customer a create answers is the one it sent, not read
 * back (`knownBeforeInsert`): it must be the customer as its repository reads it.
 */
const customers = catalogue.customers
const writable = customers.fields.filter((f) => !f.readOnly && !f.computed && !f.internal && !f.unique)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`a create in one statement [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())
  /** The statement's own tests: Postgres only, where a create is one statement. */
  const onPostgres = (name: string, check: Parameters<typeof test>[1]) => {
    if (target === 'postgres') test(name, check)
  }

  onPostgres('POST /customers sends one statement: no begin, no commit', async ({ h }) => {
    const sent = await sentInOrder(() => h.request('POST', '/customers', { accountNumber: 'ONE-1', companyName: 'Acme' }))
    const own = sent.filter((q) => !/"api_keys"/.test(q))
    assert.is(own.length, 1, own.join('\n---\n'))
    assert.match(own[0], /insert into "customers"/)
    assert.match(own[0], /insert into "history"/)
    assert.match(own[0], new RegExp(`insert into "${h.platform.database.dialect.eventsAppendedTo}"`))
  })

  onPostgres('a taken account number is 409 as before, and writes nothing', async ({ h }) => {
    const count = async () => (await sql<{ n: string }>`select (select count(*) from customers) + (select count(*) from history) + (select count(*) from events) + (select count(*) from unnumbered_events) as n`.execute(h.platform.database.db)).rows[0].n
    assert.is((await h.request('POST', '/customers', { accountNumber: 'TAKEN-1' })).status, 201)
    const before = await count()
    const again = await h.request('POST', '/customers', { accountNumber: 'TAKEN-1', companyName: 'Second' })
    assert.is(again.status, 409)
    assert.is(again.body.error_code, 409001)
    assert.is(await count(), before)
    const ctx = h.platform.context
    const inTransaction = await ctx.store.transaction((store) => createItem({ ...ctx, store }, customers, { accountNumber: 'TAKEN-1' })).catch((e: { code?: string; message?: string }) => `${e.code}: ${e.message}`)
    const alone = await createItem(ctx, customers, { accountNumber: 'TAKEN-1' }).catch((e: { code?: string; message?: string }) => `${e.code}: ${e.message}`)
    assert.is(alone, inTransaction)
  })

  onPostgres('all or nothing: an event the database refuses leaves no customer and no history entry', async ({ h }) => {
    const db = h.platform.database.db
    // The table a create appends its event to (Postgres: unnumbered, dialect/event-numbers.ts).
    const events = sql.table(h.platform.database.dialect.eventsAppendedTo)
    await sql`alter table ${events} add constraint refuse_probe check (data not like '%REFUSED-EVENT%')`.execute(db)
    try {
      const failed = await createItem(h.platform.context, customers, { accountNumber: 'ATOMIC-1', companyName: 'REFUSED-EVENT' }).then(
        () => null,
        (e: { code?: string }) => e.code,
      )
      assert.is(failed, '23514', 'the check constraint refused the statement')
      assert.equal((await sql`select id from customers where "accountNumber" = 'ATOMIC-1'`.execute(db)).rows, [])
      assert.equal((await sql`select id from history where changes like '%ATOMIC-1%'`.execute(db)).rows, [])
    } finally {
      await sql`alter table ${events} drop constraint refuse_probe`.execute(db)
    }
  })

  test('a body of every kind of field: answered, stored and recorded as in a transaction', async ({ h }) => {
    const lists = h.platform.context.validator.presets.lists
    const rich = {
      ...{ title: 'Ms', firstnames: 'Zoë "Q" \\ 🦄', lastname: "O'Brien\u202e", companyName: 'Ω\r\n\ttab', email: 'z@example.com', country: 'GB' },
      ...{ paymentTerms: 30, defaultMobileMarkup: 0.1, defaultNationalMarkup: 1 / 3, fallbackMarkup: 5e-7 },
      ...{ creditLimit: '12.34', expectedSpend: 0.1, turnover: '-5', contractStartDate: '2024-02-29', dateOfIncorporation: '0001-01-01' },
      ...{ customerGroups: (lists[customers.byName.get('customerGroups')!.list!] ?? []).slice(0, 2), billTypes: [] },
    }
    const result = await sameAsInTransaction(h, rich)
    assert.type(result, 'object', String(result))
  })

  test('a limit the new customer has already passed: the answer shows the alert a read shows', async ({ h }) => {
    const result = (await sameAsInTransaction(h, { creditLimitOverdue: '-3' })) as { answer: string }
    assert.equal(JSON.parse(result.answer).creditAlerts, ['creditLimitOverdue'])
  })

  test('answers, stores and records what a create in a transaction does, for any body', async ({ h }) => {
    const ctx = h.platform.context
    const parent = (await h.request('POST', '/customers', { accountNumber: 'PARENT-1' })).body.id as string
    const lists = ctx.validator.presets.lists
    const value = (name: string) => {
      const f = customers.byName.get(name)!
      return fieldValue(f, f.list ? (lists[f.list] ?? []) : [], [parent, '999999'], false)
    }
    const body = fc.uniqueArray(fc.constantFrom(...writable.map((f) => f.name)), { minLength: 1, maxLength: 8 }).chain((names) =>
      fc.tuple(...names.map((n) => value(n).map((v): [string, Json] => [n, v]))),
    )
    await fc.assert(
      fc.asyncProperty(body, async (pairs) => {
        await sameAsInTransaction(h, JSON.parse(toJsonText({ obj: pairs })) as Record<string, unknown>)
      }),
      { numRuns: 150 },
    )
  })

  test.run()
}

/** A create's answer, stored row and records alone (one statement) and in a transaction: the same, the answer as stored. */
async function sameAsInTransaction(h: Harness, input: Record<string, unknown>): Promise<unknown> {
  const ctx = h.platform.context
  const db = h.platform.database.db
  /** What a create wrote: its answer, its stored row as GET reads it, its history entry and its event, with the ID as `ID`. */
  const written = async (make: () => Promise<Item>) => {
    const created = await make().catch((e: { code?: string; message?: string }) => `error ${e.code}: ${e.message}`)
    if (typeof created === 'string') return created
    const id = created.id
    const got = await h.request('GET', `/customers/${id}`)
    const entry = (await sql<{ changes: string }>`select changes from history where "resource" = 'customers' and "resourceID" = ${id}`.execute(db)).rows
    await h.platform.database.dialect.numberEvents(db)
    const event = (await sql<{ data: string }>`select data from events where type = 'customer.created' order by id desc limit 1`.execute(db)).rows[0].data
    const unId = (text: string, pattern: (id: string) => string) => text.replace(pattern(id), pattern('ID'))
    const read = await ctx.store.repository('customers').get(id)
    return {
      answer: unId(toWireJson(customers, created), (i) => `"id":"${i}"`),
      read: unId(toWireJson(customers, read!), (i) => `"id":"${i}"`),
      stored: unId(got.text, (i) => `"id":"${i}"`),
      entries: entry.map((e) => unId(e.changes, (i) => `"id":[null,"${i}"]`)),
      event: unId(event, (i) => `"id":"${i}"`),
    }
  }
  const alone = await written(() => createItem(ctx, customers, input))
  const inTransaction = await written(() => ctx.store.transaction((store) => createItem({ ...ctx, store }, customers, input)))
  assert.equal(alone, inTransaction)
  if (typeof alone !== 'string') assert.is(alone.answer, alone.read, 'the answer is the customer as stored')
  return alone
}
