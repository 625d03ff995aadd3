import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import type { Field } from '../../core/fields/field.js'
import { createBillingPlatform, FixedClock, type BillingPlatform, type ResourceName } from '../../index.js'

/**
 * The library's types (ShownOf, WireOf) are derived from the catalogue and never checked by the
 * compiler against what the code answers at run time. Here real answers of each kind are held to
 * them: every field the type names is there, with a value of the type's kind.
 */
const test = suite<{ billing: BillingPlatform; answers: [ResourceName, object][] }>('apps: library answers have the shape their types promise')

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Whether `value` is of the kind the domain type (`ShownOf`) gives a field. */
function domainKind(field: Field, value: unknown): boolean {
  if (value === null) return field.name !== 'id' && !field.required
  switch (field.type) {
    case 'currency':
      return typeof value === 'bigint'
    case 'date':
      return typeof value === 'string' && DATE.test(value)
    case 'id':
    case 'text':
    case 'preset':
    case 'datetime':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    case 'presets':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
    case 'json':
      return true
  }
}

/** Whether `value` is of the kind the wire type (`WireOf`) gives a field. */
function wireKind(field: Field, value: unknown): boolean {
  if (field.writeOnly) return value === null
  if (field.type === 'presets') return Array.isArray(value)
  if (field.type === 'currency') return value === null || typeof value === 'number'
  return domainKind(field, value)
}

const shownFields = (name: ResourceName) => (catalogue[name].fields as readonly Field[]).filter((f) => !f.internal && !f.writeOnly)
const wireFields = (name: ResourceName) => (catalogue[name].fields as readonly Field[]).filter((f) => !f.internal)

test.before(async (ctx) => {
  const billing = (ctx.billing = await createBillingPlatform({ databaseUrl: 'sqlite::memory:', clock: new FixedClock('2026-01-15T10:00:00Z') }))
  const customer = await billing.customers.create({ accountNumber: 'ACC-1', lastname: 'Lovelace', creditLimit: '250.00' })
  const number = await billing.numbers.create(customer.id, { number: '020 7946 0018' })
  const service = await billing.services.create(customer.id, {})
  const feature = await billing.features.create({ numberID: number.id }, { serviceCharge: '12.50', startDate: '2026-01-01' })
  const contact = await billing.contacts.createDirect(customer.id, { lastname: 'Hopper' })
  const tariff = await billing.tariffs.create({ name: 'Standard' })
  const payment = await billing.transactions.add(customer.id, { transactionType: 'Payment', amount: '-20.00', transactionDate: '2026-01-10' })
  const run = await billing.billingRuns.create({ invoiceDate: '2026-02-01' })
  const { webhook } = await billing.webhooks.create({ url: 'https://example.com/hook' })
  const changed = await billing.features.action(feature.id, 'changeRecurringCharge', { serviceCharge: '15.00', dateFrom: '2026-01-10' })
  const dropped = await billing.features.action(feature.id, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
  const secret = await billing.contacts.createDirect(customer.id, { lastname: 'Turing', accountPassword: 'correct horse battery' })
  await billing.customers.action(customer.id, 'generatePIN')
  const expanded = (await billing.customers.list({ expandNumbers: true, expandFeatures: true })).expanded ?? []
  ctx.answers = [
    ['features', changed],
    ['customerContacts', secret],
    ...expanded.flatMap((e): [ResourceName, object][] => [['customers', e.item], ...(e.numbers ?? []).map((n): [ResourceName, object] => ['numbers', n.item])]),
    ['customers', customer],
    ['customers', await billing.customers.get(customer.id)],
    ['numbers', number],
    ['services', service],
    ['features', feature],
    ['features', dropped],
    ...(await billing.features.listOf({ customerID: customer.id }, { includeNumbers: true })).items.map((f): [ResourceName, object] => ['features', f]),
    ['customerContacts', contact],
    ['tariffs', tariff],
    ['transactions', payment],
    ['billingRuns', run],
    ['webhooks', webhook],
    ...(await billing.history.list({ customerID: customer.id })).items.map((h): [ResourceName, object] => ['history', h]),
    ...(await billing.events.list({ limit: 3 })).items.map((e): [ResourceName, object] => ['events', e]),
  ]
})
test.after(({ billing }) => billing.close())

test('every answer has each field of its type, of the kind the type gives (money exact, dates YYYY-MM-DD)', ({ answers }) => {
  assert.ok(answers.length >= 15, `${answers.length} answers`)
  for (const [name, item] of answers) {
    for (const field of shownFields(name)) {
      assert.ok(field.name in item, `${name}: ${field.name} is there`)
      const value = (item as Record<string, unknown>)[field.name]
      assert.ok(domainKind(field, value), `${name}.${field.name} is a ${field.type}: ${String(value)}`)
    }
  }
})

test('no answer carries an internal or write-only field (hashes, charge history, digits-only copies)', ({ answers }) => {
  const names = new Set(answers.map(([name]) => name))
  assert.ok(names.has('customers') && names.has('numbers') && names.has('customerContacts') && names.has('features'))
  for (const [name, item] of answers) {
    const hidden = (catalogue[name].fields as readonly Field[]).filter((f) => f.internal || f.writeOnly).map((f) => f.name)
    assert.equal(hidden.filter((f) => f in item), [], `${name} hides ${hidden.join(', ')}`)
  }
})

test("toWire's JSON has exactly the fields of WireOf, money as numbers", ({ billing, answers }) => {
  for (const [name, item] of answers) {
    const json = billing.toWire(name, item as never) as Record<string, unknown>
    assert.equal(Object.keys(json), wireFields(name).map((f) => f.name), `${name}: the fields of WireOf, in catalogue order`)
    for (const field of wireFields(name)) assert.ok(wireKind(field, json[field.name]), `${name}.${field.name} on the wire: ${String(json[field.name])}`)
  }
})

test.run()
