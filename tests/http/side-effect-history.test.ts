import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** Contract 12 for rows a call writes besides its item, and for the worker's own changes (as `system`). */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`history of side effects and worker changes [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-10T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const lastEvent = async (h: Harness): Promise<string> => (await h.request('GET', '/events?limit=1000')).body.at(-1)?.id ?? '0'
  const eventsAfter = async (h: Harness, id: string) => ((await h.request('GET', `/events?idAfter=${id}&limit=1000`)).body as any[]).map((e) => `${e.type}#${e.data.id}`)
  const history = async (h: Harness, collection: string, id: string) =>
    ((await h.request('GET', `/${collection}/${id}/history`)).body as any[]).map((e) => ({ action: e.action, by: e.apiKeyName, changes: e.changes }))
  const job = async (h: Harness, name: string) => {
    const failures: unknown[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => e.outcome === 'failed' && failures.push(e.error) })
    await scheduler.runNow(name)
    await scheduler.stop()
    assert.equal(failures, [], `${name} ran`)
  }

  test('createIncreaseVersion records its copy and each copied detail as creates, with their events', async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'SE Copy' })).body
    await h.request('POST', `/tariffs/${t.id}/tariffDetails`, { chargeBand: 'Local', timeBand: 'any', cost: '0.0100' })
    const from = await lastEvent(h)
    const copy = (await h.request('POST', `/tariffs/${t.id}/createIncreaseVersion`, { increasePercent: 10, increaseScope: 'allCharges' })).body
    const [detail] = (await h.request('GET', `/tariffs/${copy.id}/tariffDetails`)).body
    assert.equal((await history(h, 'tariffs', copy.id)).map((e) => [e.action, e.changes.name]), [['create', [null, 'SE Copy +10%']]])
    assert.equal((await history(h, 'tariffDetails', detail.id)).map((e) => [e.action, e.changes.cost]), [['create', [null, 0.011]]])
    assert.equal(await eventsAfter(h, from), [`tariff.created#${copy.id}`, `tariff_detail.created#${detail.id}`, `tariff.increase_version_created#${t.id}`])
  })

  test('applyIncrease records each detail it raises, ends or adds; the annual-increases job records the tariff as system', async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'SE Raise', baseCost: 0.1 })).body
    const now = (await h.request('POST', `/tariffs/${t.id}/tariffDetails`, { chargeBand: 'Local', timeBand: 'any', cost: '0.0100' })).body
    await h.request('POST', `/tariffs/${t.id}/applyIncrease`, { increasePercent: 10, increaseScope: 'allCharges' })
    assert.equal((await history(h, 'tariffDetails', now.id)).map((e) => [e.action, e.changes.cost, e.changes.startDate]), [['create', [null, 0.01], undefined], ['update', [0.01, 0.011], [null, '2026-01-10']]])
    // Its price before today is kept, as a copy that ends yesterday.
    const kept = ((await h.request('GET', `/tariffs/${t.id}/tariffDetails`)).body as any[]).find((d) => d.id !== now.id)
    assert.equal((await history(h, 'tariffDetails', kept.id)).map((e) => [e.action, e.changes.endDate, e.changes.cost]), [['create', [null, '2026-01-09'], [null, 0.01]]])
    // From a later date: the detail ends the day before, a raised copy starts on it, the tariff's own price waits.
    const from = await lastEvent(h)
    assert.is((await h.request('POST', `/tariffs/${t.id}/applyIncrease`, { increasePercent: 10, increaseScope: 'allCharges', increaseEffectiveDate: '2026-02-01' })).status, 200)
    const added = ((await h.request('GET', `/tariffs/${t.id}/tariffDetails`)).body as any[]).find((d) => d.id !== now.id && d.id !== kept.id)
    assert.equal((await history(h, 'tariffDetails', now.id)).at(-1), { action: 'update', by: 'test-admin', changes: { endDate: [null, '2026-01-31'] } })
    assert.equal((await history(h, 'tariffDetails', added.id)).map((e) => [e.action, e.changes.startDate, e.changes.cost]), [['create', [null, '2026-02-01'], [null, 0.0121]]])
    assert.equal(await eventsAfter(h, from), [`tariff_detail.updated#${now.id}`, `tariff_detail.created#${added.id}`, `tariff.increase_applied#${t.id}`])
    h.clock.set('2026-02-02T04:00:00Z' as never)
    const due = await lastEvent(h)
    await job(h, 'annual-increases')
    const moved = (await history(h, 'tariffs', t.id)).at(-1)!
    assert.equal([moved.action, moved.by, moved.changes.baseCost], ['update', 'system', [0.11, 0.121]])
    assert.equal(await eventsAfter(h, due), [`tariff.updated#${t.id}`])
    h.clock.set('2026-01-10T09:00:00Z' as never)
  })

  test("writeOffDebt records its Credit Note transaction as a create", async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'SE-W1' })).body
    await h.request('POST', `/customers/${c.id}/transactions`, { transactionType: 'Debit Note', amount: 50, transactionDate: '2026-01-05' })
    await h.request('POST', `/customers/${c.id}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-08' })
    assert.is((await h.request('POST', `/customers/${c.id}?action=writeOffDebt`, { dateWriteoff: '2026-01-10' })).status, 200)
    const note = ((await h.request('GET', `/customers/${c.id}/transactions`)).body as any[]).find((x) => x.transactionType === 'Credit Note')
    const entries = (await h.request('GET', `/transactions/${note.id}/history`)).body as any[]
    assert.equal(entries.map((e) => [e.action, e.customerID, e.changes.amount, e.changes.description]), [['create', c.id, [null, -50], [null, 'Debt written off']]])
    const events = ((await h.request('GET', '/events?limit=1000')).body as any[]).filter((e) => e.type.startsWith('transaction.') && e.data.id === note.id)
    assert.equal(events.map((e) => e.type), ['transaction.created'])
  })

  test("a delete records each dependent it takes: a tariff's details, a number's features", async ({ h }) => {
    const t = (await h.request('POST', '/tariffs', { name: 'SE Gone' })).body
    const detail = (await h.request('POST', `/tariffs/${t.id}/tariffDetails`, { chargeBand: 'Local', timeBand: 'any', cost: '0.0100' })).body
    const c = (await h.request('POST', '/customers', { accountNumber: 'SE-D1' })).body
    const n = (await h.request('POST', `/customers/${c.id}/numbers`, { number: '01632960977' })).body
    const f = (await h.request('POST', `/numbers/${n.id}/features`, { description: 'line' })).body
    const from = await lastEvent(h)
    assert.is((await h.request('DELETE', `/tariffs/${t.id}`)).status, 200)
    assert.is((await h.request('DELETE', `/numbers/${n.id}`)).status, 200)
    // The items are gone, so their history is read from the list.
    const of = async (resource: string, id: string) => ((await h.request('GET', `/history?resource=${resource}&resourceID=${id}`)).body as any[]).map((e) => [e.action, e.customerID])
    assert.equal(await of('tariffDetails', detail.id), [['create', null], ['delete', null]])
    assert.equal(await of('features', f.id), [['create', c.id], ['delete', c.id]])
    const gone = ((await h.request('GET', `/history?resource=features&resourceID=${f.id}`)).body as any[]).at(-1)
    assert.equal(gone.changes.description, ['line', null])
    assert.equal(await eventsAfter(h, from), [`tariff_detail.deleted#${detail.id}`, `tariff.deleted#${t.id}`, `feature.deleted#${f.id}`, `number.deleted#${n.id}`])
  })

  test('a billing run that moves a renewal date on records the feature update as system', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'SE-R1' })).body
    const f = (await h.request('POST', `/customers/${c.id}/features`, { startDate: '2025-06-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly', renewalPeriodLength: 3, renewalPeriodLengthType: 'months' })).body
    assert.is(f.renewalDate, '2025-09-01')
    const from = await lastEvent(h)
    await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })
    await job(h, 'billing-poll')
    const entry = (await history(h, 'features', f.id)).at(-1)!
    assert.equal([entry.action, entry.by, entry.changes.renewalDate], ['update', 'system', ['2025-09-01', '2026-03-01']])
    const feature = (await h.request('GET', `/features/${f.id}`)).body
    const events = ((await h.request('GET', `/events?idAfter=${from}&limit=1000`)).body as any[]).filter((e) => e.type.startsWith('feature.'))
    assert.equal(events.map((e) => [e.type, e.data.id, e.data.renewalDate]), [['feature.updated', f.id, feature.renewalDate]])
  })

  test.run()
}
