import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createBillingPlatform, FixedClock, type BillingPlatform } from '../../index.js'
import { failure } from '../support/library-failure.js'

const BASE = '/backend/api/v1'
const test = suite<{ billing: BillingPlatform; key: string; customerID: string }>('apps: the library face answers as the HTTP API does')

test.before(async (ctx) => {
  ctx.billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:', clock: new FixedClock('2026-01-15T10:00:00Z') })
  ctx.key = (await ctx.billing.apiKeys.create({ name: 'test', expertLevel: 5 })).secret
  ctx.customerID = (await ctx.billing.customers.create({ accountNumber: 'ACC-1', lastname: 'Lovelace' })).id
})
test.after(({ billing }) => billing.close())

async function http(ctx: { billing: BillingPlatform; key: string }, method: string, path: string, body?: unknown) {
  const res = await ctx.billing.http.request(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

/**
 * The same request both ways: the library call, then the HTTP request. The library's types
 * refuse most of these already (`@ts-expect-error`); they are made anyway, as a JavaScript
 * caller would make them.
 */
const refusals: [string, (b: BillingPlatform, id: string) => Promise<unknown>, string, (id: string) => string, unknown?][] = [
  // @ts-expect-error a field the collection does not have: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['unknown field', (b) => b.customers.create({ nosuch: 1 }), 'POST', () => '/customers', { nosuch: 1 }],
  ['not a preset', (b, id) => b.customers.update(id, { title: 'Captain' }), 'PATCH', (id) => `/customers/${id}`, { title: 'Captain' }],
  ['no such customer', (b) => b.customers.get('999'), 'GET', () => '/customers/999'],
  ['bad limit', (b) => b.customers.list({ limit: 0 }), 'GET', () => '/customers?limit=0'],
  // @ts-expect-error an action the collection does not have: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['unknown action', (b, id) => b.customers.action(id, 'fly'), 'POST', (id) => `/customers/${id}?action=fly`, {}],
  // @ts-expect-error drop needs status and dateDrop: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['missing parameter', (b, id) => b.customers.action(id, 'drop', {}), 'POST', (id) => `/customers/${id}?action=drop`, {}],
  ['body not an object', (b, id) => b.customers.action(id, 'suspend', [] as never), 'POST', (id) => `/customers/${id}?action=suspend`, []],
  ['features of no customer', (b) => b.features.listOf({ customerID: '999' }), 'GET', () => '/customers/999/features'],
  // @ts-expect-error a field numbers do not have: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['number of no customer', (b) => b.numbers.create('999', { bogus: 1 }), 'POST', () => '/customers/999/numbers', { bogus: 1 }],
  // @ts-expect-error a field transactions do not have: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['transaction of no customer', (b) => b.transactions.add('999', { bogus: 1 }), 'POST', () => '/customers/999/transactions', { bogus: 1 }],
  ['transaction without amount', (b, id) => b.transactions.add(id, { transactionType: 'Payment' }), 'POST', (id) => `/customers/${id}/transactions`, { transactionType: 'Payment' }],
  ['billing run status', (b) => b.billingRuns.create({ status: 'Running' }), 'POST', () => '/billingRuns', { status: 'Running' }],
  ['no such billing run', (b) => b.billingRuns.update('999', { status: 'Running' }), 'PATCH', () => '/billingRuns/999', { status: 'Running' }],
  // @ts-expect-error a field rates do not have: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['rates of no tariff', (b) => b.tariffDetails.create('999', { bogus: 1 }), 'POST', () => '/tariffs/999/tariffDetails', { bogus: 1 }],
  // @ts-expect-error applyIncrease needs increasePercent: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['increase of no tariff', (b) => b.tariffs.applyIncrease('999', {}), 'POST', () => '/tariffs/999/applyIncrease', {}],
  ['contacts of no customer', (b) => b.contacts.listOf('999'), 'GET', () => '/customers/999/customerContacts'],
  // @ts-expect-error a flag contact lists do not take: a TypeScript caller is told when compiling, a JavaScript one at run time
  ['unknown contact flag', (b) => b.contacts.list({ expandNumbers: true }), 'GET', () => '/customerContacts?expandNumbers=true'],
  // Audit: these names were gathered on a plain object: `__proto__` vanished, `constructor` was "given more than once".
  ['__proto__ as a list parameter', (b) => b.customers.list(JSON.parse('{"__proto__": "1"}')), 'GET', () => '/customers?__proto__=1'],
  ['constructor as a list parameter', (b) => b.customers.list(JSON.parse('{"constructor": "1"}')), 'GET', () => '/customers?constructor=1'],
]

for (const [name, call, method, path, body] of refusals) {
  test(`refused alike: ${name}`, async (ctx) => {
    const viaLibrary = await failure(() => call(ctx.billing, ctx.customerID))
    const viaHttp = await http(ctx, method, path(ctx.customerID), body)
    assert.equal(viaLibrary, { error_code: viaHttp.body.error_code, error: viaHttp.body.error })
  })
}

test('answers alike: an item, an expanded list, a scoped list, an action with its own result', async (ctx) => {
  const { billing, customerID } = ctx
  const number = await billing.numbers.create(customerID, { number: '020 7946 0018' })
  await billing.features.create({ numberID: number.id }, {})
  assert.equal(billing.toWire('customers', await billing.customers.get(customerID)), (await http(ctx, 'GET', `/customers/${customerID}`)).body)
  const page = await billing.customers.list({ expandNumbers: true, expandFeatures: '' })
  assert.equal(page.expanded!.map((e) => billing.toWire('customers', e)), (await http(ctx, 'GET', '/customers?expandNumbers&expandFeatures')).body)
  const features = await billing.features.listOf({ customerID }, { includeNumbers: true })
  assert.equal(features.items.map((f) => billing.toWire('features', f)), (await http(ctx, 'GET', `/customers/${customerID}/features?includeNumbers`)).body)
  assert.is((await billing.features.listOf({ customerID })).items.length, 0, "without includeNumbers: the customer's own only")
  const { pin } = await billing.customers.action(customerID, 'generatePIN')
  assert.match(pin, /^\d{6}$/)
  const suspended = await billing.customers.action(customerID, 'suspend', { status: 'Suspended' })
  assert.is(suspended.isSuspended, true)
  assert.equal(Object.keys(await billing.presetValues('customers')), Object.keys((await http(ctx, 'GET', '/presets/customers')).body))
})

test("payment links: the link generatePaymentLinks recorded, read as GET /customers/<id>/paymentLinks/ answers it", async (ctx) => {
  const { billing } = ctx
  const customer = await billing.customers.create({ accountNumber: 'ACC-LINKS', lastname: 'Byron', portalCustomerProfile: 'Standard Portal' })
  const made = (await billing.customers.action(customer.id, 'generatePaymentLinks')) as { paymentLinkUUID: string }
  const page = await billing.customers.paymentLinks(customer.id)
  assert.equal(page.items.map((l) => [l.paymentLinkUUID, l.status]), [[made.paymentLinkUUID, 'Open']])
  assert.equal(page.items.map((l) => billing.toWire('paymentLinks', l)), (await http(ctx, 'GET', `/customers/${customer.id}/paymentLinks/`)).body)
  assert.equal(await failure(() => billing.customers.paymentLinks('999')), await failure(() => billing.customers.get('999')), 'an unknown customer fails as a read of it does')
})

test("a JavaScript caller's unknown preset collection is the API's not-found error, not a bug of ours", async ({ billing }) => {
  const refused = await failure(() => billing.presetValues('nope' as never))
  assert.is(refused.error_code, 404001)
  assert.match(refused.error, /No collection "nope"/)
})

test('numeric options are checked as their environment variables are: a bad retention or timeout stops the start', async () => {
  for (const [option, value] of [['drRetentionDays', 0], ['drRetentionDays', 1.5], ['drRetentionDays', 'x'], ['webhookTimeoutMs', -1], ['webhookTimeoutMs', 2 ** 31]] as const) {
    try {
      await createBillingPlatform({ databaseUrl: 'sqlite::memory:', [option]: value as never })
      assert.unreachable(`${option} ${value}`)
    } catch (e) {
      assert.match((e as Error).message, new RegExp(`^${option} must be`), `${option} ${value}`)
    }
  }
  // Text from process.env is read as its number, as the variable's own reader does.
  const billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:', drRetentionDays: '7' as never })
  await billing.close()
})

test('an existing Kysely instance: used, migrated, and left open by close()', async () => {
  const sqlite = new SqliteDatabase(':memory:')
  // Typed with the embedder's own tables: any Kysely instance is accepted.
  const db = new Kysely<{ orders: { id: number } }>({ dialect: new SqliteDialect({ database: sqlite }) })
  const billing = await createBillingPlatform({ kysely: { db, dialect: 'sqlite' } })
  await billing.customers.create({ accountNumber: 'K-1' })
  await billing.close()
  await billing.close()
  const rows = await sql<{ n: number }>`select count(*) as n from customers`.execute(db)
  assert.is(Number(rows.rows[0].n), 1)
  await db.destroy()
})

test('neither databaseUrl nor kysely: a clear error', async () => {
  try {
    await createBillingPlatform({})
    assert.unreachable()
  } catch (e) {
    assert.match((e as Error).message, /databaseUrl/)
  }
})

test.run()
