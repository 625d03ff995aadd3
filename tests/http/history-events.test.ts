import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createItem, updateItem } from '../../core/resources/resources.js'
import { catalogue } from '../../core/fields/catalogue.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`history and events [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('create, update, action and delete each record who changed what, and an event', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'H-1', companyName: 'Acme' }, { headers: { 'x-request-id': 'req-create' } })).body
    await h.request('PATCH', `/customers/${c.id}`, { companyName: 'Acme Ltd', creditLimit: '100.50' })
    await h.request('PATCH', `/customers/${c.id}`, {}) // changes nothing: no entry
    const dropped = await h.request('POST', `/customers/${c.id}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-20' })
    assert.is(dropped.status, 200)
    const list = await h.request('GET', `/customers/${c.id}/history`)
    assert.is(list.status, 200)
    assert.equal(list.body.map((e: any) => e.action), ['create', 'update', 'drop'])
    const [created, updated, drop] = list.body
    assert.equal(Object.keys(created).sort(), catalogue.history.fields.map((f) => f.name).sort())
    assert.is(created.resource, 'customers')
    assert.is(created.resourceID, c.id)
    assert.is(created.customerID, c.id)
    assert.is(created.apiKeyName, 'test-admin')
    assert.is(created.requestID, 'req-create')
    assert.equal(created.changes.companyName, [null, 'Acme'])
    assert.equal(updated.changes.companyName, ['Acme', 'Acme Ltd'])
    assert.equal(updated.changes.creditLimit, [null, 100.5])
    assert.not.ok('accountNumber' in updated.changes, 'only the fields that changed')
    assert.equal(drop.changes.isDropped, [false, true])
    const events = (await h.request('GET', '/events')).body
    assert.equal(events.map((e: any) => e.type), ['customer.created', 'customer.updated', 'customer.dropped'])
    assert.is(events[2].data.id, c.id)
    assert.is(events[2].data.isDropped, true, 'the resource as GET answers it')
    const after = (await h.request('GET', `/events?idAfter=${events[0].id}`)).body
    assert.equal(after.map((e: any) => e.id), [events[1].id, events[2].id])
    assert.equal((await h.request('GET', `/history?customerID=${c.id}&resource=customers`)).body.length, 3)
    assert.equal((await h.request('GET', '/history?since=2099-01-01T00:00:00Z')).body, [])
    assert.is((await h.request('GET', '/customers/999999/history')).body.error_code, 404001)
  })

  test('a cascade records each item it drops or reinstates: an entry with its changes and an event, written together', async ({ h }) => {
    const post = async (path: string, body: object = {}) => (await h.request('POST', path, body)).body.id as string
    const c = await post('/customers', { accountNumber: 'CASCADE-1' })
    const n = await post(`/customers/${c}/numbers`, { number: '01174960950' })
    const s = await post(`/customers/${c}/services`)
    const fs = [await post(`/numbers/${n}/features`), await post(`/services/${s}/features`), ...(await Promise.all([1, 2, 3].map(() => post(`/customers/${c}/features`))))]
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    h.queries.length = 0
    assert.is((await h.request('POST', `/customers/${c}?action=drop`, { status: 'Ex-Customer', dateDrop: '2026-01-20' })).status, 200)
    // one statement of history (and one of events) for the whole tree, one update for the features' equal changes
    assert.is(h.queries.filter((q) => /insert into "history"/.test(q)).length, 2, 'the cascade\'s entries at once, then the customer\'s')
    assert.is(h.queries.filter((q) => /^\s*update "features"/.test(q)).length, 1)
    const feature = (await h.request('GET', `/features/${fs[0]}/history`)).body
    assert.equal(feature.map((e: any) => e.action), ['create', 'drop'])
    assert.is(feature[1].customerID, c)
    assert.equal([feature[1].changes.isDropped, feature[1].changes.status, feature[1].changes.billToDate], [[false, true], ['Active', 'Ex-Customer'], [null, '2026-01-20']])
    assert.not.ok('droppedBy' in feature[1].changes, 'cascade bookkeeping is not a field of the API')
    for (const path of [`/numbers/${n}`, `/services/${s}`]) assert.equal((await h.request('GET', `${path}/history`)).body.map((e: any) => e.action), ['create', 'drop'], path)
    const dropped = (await h.request('GET', `/events?idAfter=${last}&limit=1000`)).body
    const types = (events: any[]) => events.map((e: any) => `${e.type}:${e.data.id}`).sort()
    const each = (verb: string) => [`customer.${verb}:${c}`, `number.${verb}:${n}`, `service.${verb}:${s}`, ...fs.map((f) => `feature.${verb}:${f}`)].sort()
    assert.equal(types(dropped), each('dropped'))
    assert.ok(dropped.filter((e: any) => e.type === 'feature.dropped').every((e: any) => e.data.isDropped === true), 'each item as GET answers it')
    const next = dropped.at(-1).id
    assert.is((await h.request('POST', `/customers/${c}?action=reinstate`, { status: 'Active', dateReinstate: '2026-01-25' })).status, 200)
    assert.equal(types((await h.request('GET', `/events?idAfter=${next}&limit=1000`)).body), each('reinstated'))
    assert.equal((await h.request('GET', `/features/${fs[2]}/history`)).body.at(-1).changes.isDropped, [true, false])
  })

  test('a contact password shows as [redacted]; a tariff delete is recorded', async ({ h }) => {
    const c = (await h.request('POST', '/customers', {})).body
    const contact = (await h.request('POST', `/customers/${c.id}/customerContacts`, { accountPassword: 'hunter2' })).body
    await h.request('PATCH', `/customerContacts/${contact.id}`, { accountPassword: 'hunter3' })
    const entries = (await h.request('GET', `/customerContacts/${contact.id}/history`)).body
    assert.equal(entries.map((e: any) => e.changes.accountPassword), [[null, '[redacted]'], ['[redacted]', '[redacted]']])
    assert.is(entries[0].customerID, c.id)
    assert.not.ok(JSON.stringify(entries).includes('hunter'), 'no secret in history')
    const t = (await h.request('POST', '/tariffs', { name: 'Hist Tariff' })).body
    assert.is((await h.request('DELETE', `/tariffs/${t.id}`)).status, 200)
    const del = (await h.request('GET', `/history?resource=tariffs&resourceID=${t.id}`)).body
    assert.equal(del.map((e: any) => e.action), ['create', 'delete'])
    assert.equal(del[1].changes.name, ['Hist Tariff', null])
  })

  test('outbox: a change that rolls back leaves neither history nor event; one that commits has both', async ({ h }) => {
    const ctx = h.platform.context
    const before = (await h.request('GET', '/events?limit=1000')).body.length
    const historyBefore = (await h.request('GET', '/history?limit=1000')).body.length
    const failed = await ctx.store
      .transaction(async (store) => {
        await createItem({ ...ctx, store }, catalogue.customers, { accountNumber: 'ROLLBACK-1' })
        // Written: the item, its entry and its event are in this transaction. Now it fails.
        assert.is((await store.repository('customers').list({ where: [{ op: 'eq', column: 'accountNumber', value: 'ROLLBACK-1' }], limit: 1 })).length, 1)
        throw new Error('fail after the write')
      })
      .then(() => null, (e: Error) => e.message)
    assert.is(failed, 'fail after the write')
    assert.is((await h.request('GET', '/events?limit=1000')).body.length, before)
    assert.is((await h.request('GET', '/history?limit=1000')).body.length, historyBefore)
    assert.equal((await h.request('GET', '/customers?accountNumber=ROLLBACK-1')).body, [])
    const c = await createItem(ctx, catalogue.customers, { accountNumber: 'COMMIT-1' })
    await updateItem(ctx, catalogue.customers, c.id, { companyName: 'Committed' })
    const entries = (await h.request('GET', `/customers/${c.id}/history`)).body
    assert.equal(entries.map((e: any) => [e.action, e.apiKeyName]), [['create', 'system'], ['update', 'system']])
    const events = (await h.request('GET', `/events?idAfter=0&limit=1000`)).body.slice(before)
    assert.equal(events.map((e: any) => e.type), ['customer.created', 'customer.updated'])
  })

  test('a manual transaction is recorded; a usage import is one event; a deleted billing run is recorded', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'TX-1' })).body
    const tx = (await h.request('POST', `/customers/${c.id}/transactions`, { transactionType: 'Credit Note', amount: '5', description: 'goodwill' })).body
    const entries = (await h.request('GET', `/transactions/${tx.id}/history`)).body
    assert.equal(entries.map((e: any) => [e.action, e.customerID, e.changes.amount]), [['create', c.id, [null, -5]]])
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    const csv = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n09999999999,07700900127,2026-01-14T12:00:00Z,30,MOB,mobile,Gamma\n09999999999,07700900128,2026-01-14T12:01:00Z,30,MOB,mobile,Gamma\n'
    const file = await h.request('POST', '/usageFiles?name=u.csv', undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
    assert.is(file.status, 201)
    const imported = (await h.request('GET', `/events?idAfter=${last}`)).body
    assert.equal(imported.map((e: any) => [e.type, e.data.id, e.data.rows]), [['usage_file.imported', file.body.id, 2]])
    const run = (await h.request('POST', '/billingRuns', { name: 'Gone', cutoffDate: '2026-01-31' })).body
    assert.is((await h.request('DELETE', `/billingRuns/${run.id}`)).status, 200)
    assert.equal((await h.request('GET', `/history?resource=billingRuns&resourceID=${run.id}`)).body.map((e: any) => e.action), ['create', 'delete'])
  })

  test('a billing run announces each invoice and its completion', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'RUN-1' })).body
    await h.request('POST', `/customers/${c.id}/features`, { featureType: 'Line Rental', startDate: '2026-01-01', serviceCharge: '10', serviceChargeInterval: 'Monthly' })
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    const run = (await h.request('POST', '/billingRuns', { name: 'R', cutoffDate: '2026-01-31', invoiceDate: '2026-02-01', status: 'Requested' })).body
    const { runNextBillingRun } = await import('../../core/billing/run-billing.js')
    await runNextBillingRun(h.platform.context)
    const events = (await h.request('GET', `/events?idAfter=${last}`)).body
    const raised = events.filter((e: any) => e.type === 'invoice.raised')
    const invoices = (await h.request('GET', `/customers/${c.id}/invoices`)).body
    assert.ok(invoices.length >= 1)
    assert.equal(raised.filter((e: any) => e.data.customerID === c.id).map((e: any) => e.data), invoices)
    const completed = events.filter((e: any) => e.type === 'billing_run.completed')
    assert.is(completed.length, 1)
    assert.is(completed[0].data.id, run.id)
    assert.is(completed[0].data.status, 'Complete')
  })

  test('a PATCH that changes a charge records the whole change once: the entry lists lastUpdatedDate, feature.updated and feature.charge_changed carry the feature as GET answers it', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'CHG-1' })).body
    const f = (await h.request('POST', `/customers/${c.id}/features`, { startDate: '2026-01-01', serviceCharge: '10', serviceChargeInterval: 'Monthly' })).body
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1).id
    const patched = await h.request('PATCH', `/features/${f.id}`, { serviceCharge: 20, description: 'dearer' })
    assert.is(patched.status, 200, JSON.stringify(patched.body))
    const got = (await h.request('GET', `/features/${f.id}`)).body
    // Nothing charged yet: the change takes effect from the start date.
    assert.equal([got.serviceCharge, got.lastUpdatedDate], [20, '2026-01-01'])
    const events = (await h.request('GET', `/events?idAfter=${last}`)).body
    assert.equal(events.map((e: any) => e.type), ['feature.updated', 'feature.charge_changed'])
    for (const e of events) assert.equal(e.data, got, `${e.type}: the feature as GET answers it`)
    const entries = (await h.request('GET', `/features/${f.id}/history`)).body
    assert.equal(entries.map((e: any) => e.action), ['create', 'update'], 'one entry for the PATCH')
    const { changes } = entries[1]
    assert.equal(changes.serviceCharge, [10, 20])
    assert.equal(changes.description, [null, 'dearer'])
    assert.equal(changes.lastUpdatedDate, [null, '2026-01-01'])
    // The action announces the same way (a PATCH is its `replace`).
    const beforeAction = events.at(-1).id
    assert.is((await h.request('POST', `/features/${f.id}?action=changeRecurringCharge`, { serviceCharge: 30 })).status, 200)
    const action = (await h.request('GET', `/events?idAfter=${beforeAction}`)).body
    assert.equal(action.map((e: any) => e.type), ['feature.charge_changed'])
    assert.equal(action[0].data, (await h.request('GET', `/features/${f.id}`)).body)
    // A PATCH of no charge field is an update only.
    const beforeRename = action[0].id
    await h.request('PATCH', `/features/${f.id}`, { description: 'renamed' })
    assert.equal((await h.request('GET', `/events?idAfter=${beforeRename}`)).body.map((e: any) => e.type), ['feature.updated'])
  })

  test('a billing run the worker starts and completes records each status change as system', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'RUN-2' })).body
    await h.request('POST', `/customers/${c.id}/features`, { startDate: '2026-01-01', serviceCharge: '10', serviceChargeInterval: 'Monthly' })
    const run = (await h.request('POST', '/billingRuns', { name: 'R2', cutoffDate: '2026-01-31', invoiceDate: '2026-02-01', status: 'Requested' })).body
    const { runNextBillingRun } = await import('../../core/billing/run-billing.js')
    await runNextBillingRun(h.platform.context)
    const entries = (await h.request('GET', `/billingRuns/${run.id}/history`)).body
    assert.equal(
      entries.map((e: any) => [e.action, e.apiKeyName, e.changes.status]),
      [
        ['create', 'test-admin', [null, 'Requested']],
        ['update', 'system', ['Requested', 'Running']],
        ['update', 'system', ['Running', 'Complete']],
      ],
      'status changes only: no entry for each progress step',
    )
    assert.equal(entries[2].changes.completedDate, [null, (await h.request('GET', `/billingRuns/${run.id}`)).body.completedDate], 'with what the completion set')
  })

  test('events of a long list of items are written a chunk at a time, in ID order, each once', async ({ h }) => {
    const store = h.platform.context.store
    const tariffs = store.repository('tariffs')
    const ids = await store.transaction(async (tx) => {
      const out: string[] = []
      for (let i = 0; i < 2_345; i++) out.push((await tx.repository('tariffs').insert({ name: `Bulk ${i}` } as never)).id)
      return out
    })
    const last = (await h.request('GET', '/events?limit=1000')).body.at(-1)?.id ?? '0'
    const shuffled = [...ids].reverse()
    await store.transaction((tx) => tx.changes.appendEventsOf('tariff.probed', tariffs.resource, { id: shuffled }, '2026-01-01T00:00:00.000Z' as never))
    const events: any[] = []
    for (let after = last; ; ) {
      const page = (await h.request('GET', `/events?idAfter=${after}&limit=1000`)).body as any[]
      events.push(...page)
      if (page.length < 1000) break
      after = page.at(-1).id
    }
    assert.equal(events.map((e) => e.data.id), ids, 'every tariff once, in ID order, across chunks of 1,000')
    assert.equal(events[2_000].data, (await h.request('GET', `/tariffs/${ids[2_000]}`)).body)
  })

  test('a PATCH that changes nothing (the same values, a GET body sent back) is no update: no stamp, history entry, event or updatedSince (contract 2, 12)', async ({ h }) => {
    const start = h.clock.now()
    const post = async (path: string, body: object) => {
      const r = await h.request('POST', path, body)
      assert.is(r.status, 201, r.text)
      return r.body
    }
    const c = await post('/customers', { accountNumber: 'NOOP-1', companyName: 'Same Ltd', creditLimit: '250.00' })
    const n = await post(`/customers/${c.id}/numbers`, { number: '01632 960123', creditLimit: 10 })
    const s = await post(`/customers/${c.id}/services`, { description: 'Broadband' })
    const f = await post(`/numbers/${n.id}/features`, { startDate: '2026-01-01', serviceCharge: '12.50', serviceChargeInterval: 'Monthly', featureCount: 2, updatedDate: '2026-01-01' })
    const contact = await post('/customerContacts', { email: 'same@example.com', accountPassword: 'secret-1' })
    const t = await post('/tariffs', { name: 'Noop Calls', baseCost: 0.05, parentTariff: null })
    const ff = await post('/fixedFeeTariffs', { name: 'Noop Fees', wholesaleForCarrierIDs: ['Gamma'] })
    const td = await post(`/tariffs/${t.id}/tariffDetails`, { chargeBand: 'UK', timeBand: 'day', startDate: '2026-01-01', cost: '0.0825' })
    const fd = await post(`/fixedFeeTariffs/${ff.id}/fixedFeeTariffDetails`, { serviceCharge: '12.50', featureTypes: ['Line Rental'] })
    // Each with its values given again, spelt differently where the type allows (money as a number, a cleared flag's null).
    const items: [string, any, object, boolean][] = [
      ['customers', c, { companyName: 'Same Ltd', creditLimit: 250 }, true],
      ['numbers', n, { number: '01632 960123', creditLimit: '10.0000' }, true],
      ['services', s, { description: 'Broadband' }, true],
      ['features', f, { serviceCharge: 12.5, featureCount: 2, serviceChargeInterval: 'Monthly', updatedDate: '2026-01-01' }, true],
      ['customerContacts', contact, { email: 'same@example.com', accountPassword: null }, true],
      ['tariffs', t, { name: 'Noop Calls', baseCost: 0.05, parentTariff: null }, true],
      ['fixedFeeTariffs', ff, { wholesaleForCarrierIDs: ['Gamma'], customerID: null }, true],
      ['tariffDetails', td, { cost: 0.0825, startDate: '2026-01-01' }, false],
      ['fixedFeeTariffDetails', fd, { serviceCharge: '12.5', featureTypes: ['Line Rental'] }, false],
    ]
    h.clock.advanceMs(1000)
    const since = h.clock.now()
    h.clock.advanceMs(1000)
    let last = '0'
    for (let page: any[] = [null]; page.length > 0; last = page.at(-1)?.id ?? last) page = (await h.request('GET', `/events?idAfter=${last}&limit=1000`)).body
    for (const [collection, item, same, listed] of items) {
      const history = (await h.request('GET', `/${collection}/${item.id}/history`)).body.length
      const patched = await h.request('PATCH', `/${collection}/${item.id}`, same)
      assert.is(patched.status, 200, `${collection}: ${patched.text}`)
      assert.is(patched.body.updatedStamp, item.updatedStamp, `${collection}: the same values leave it as it was`)
      const got = (await h.request('GET', `/${collection}/${item.id}`)).body
      const back = await h.request('PATCH', `/${collection}/${item.id}`, got)
      assert.is(back.status, 200, `${collection}: ${back.text}`)
      assert.equal(back.body, got, `${collection}: GET → PATCH answers the item unchanged`)
      assert.is((await h.request('GET', `/${collection}/${item.id}/history`)).body.length, history, `${collection}: no history entry`)
      if (listed) assert.equal((await h.request('GET', `/${collection}?updatedSince=${since}`)).body, [], `${collection}: not updated since`)
    }
    assert.equal((await h.request('GET', `/events?idAfter=${last}`)).body, [], 'no event (no *.updated, no feature.charge_changed)')
    // A password given is a change, even the one it has: only its hash is stored.
    await h.request('PATCH', `/customerContacts/${contact.id}`, { accountPassword: 'secret-1' })
    const entry = (await h.request('GET', `/customerContacts/${contact.id}/history`)).body.at(-1)
    assert.equal(entry.changes.accountPassword, ['[redacted]', '[redacted]'])
    h.clock.set(start)
  })

  test.run()
}
