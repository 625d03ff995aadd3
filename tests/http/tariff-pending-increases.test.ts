import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 17.5 with a PATCH in between: a call tariff's own prices raised from a later date are a
 * percentage of the price, so a price edited before the date is raised from its new value, both
 * when calls from the date are rated and when the daily job moves it into the tariff.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`a call tariff's pending increase follows a PATCH [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-15T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const ok = async (h: Harness, method: string, path: string, body?: Record<string, unknown>) => {
    const r = await h.request(method, path, body)
    assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.body))
    return r.body
  }
  const increasesJob = async (h: Harness) => {
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('annual-increases')
    await scheduler.stop()
  }
  /** A tariff of 0.05 a minute raised 10% (`scope`) from 1 March, made on 15 February. */
  const raisedFromMarch = async (h: Harness, name: string, scope: string) => {
    h.clock.set('2026-02-15T10:00:00Z')
    const t = (await ok(h, 'POST', '/tariffs', { name, baseCost: 0.05, baseCostConnection: 0.01 })).id
    await ok(h, 'POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: scope, increaseEffectiveDate: '2026-03-01' })
    return t as string
  }
  /** The costs of one-minute national calls at `starts`, on a new number priced by `tariff`. */
  const callCosts = async (h: Harness, tariff: string, number: string, starts: string[]) => {
    const c = await newCustomer(h, { defaultNationalTariff: tariff })
    const n = (await ok(h, 'POST', `/customers/${c}/numbers`, { number })).id
    const digits = number.replace(/\s/g, '')
    const rows = starts.map((s, i) => `${digits},0163296000${i + 1},${s},60,NAT,national,Gamma`)
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
    const up = await h.request('POST', `/usageFiles?name=${digits}.csv`, undefined, { raw: file, headers: { 'content-type': 'text/csv' } })
    assert.is(up.status, 201, JSON.stringify(up.body))
    return ((await ok(h, 'GET', `/numbers/${n}/calls`)) as any[]).map((x) => x.cost)
  }
  const tariffOn = async (h: Harness, t: string, day: string) => {
    h.clock.set(`${day}T10:00:00Z`)
    await increasesJob(h)
    return ok(h, 'GET', `/tariffs/${t}`)
  }

  test('a base price edited before the date is raised from its new value: 0.20 until then, 0.22 from it, and the job sets 0.22', async ({ h }) => {
    const t = await raisedFromMarch(h, 'Pending edited', 'costOnly')
    assert.is((await ok(h, 'PATCH', `/tariffs/${t}`, { baseCost: 0.2 })).baseCost, 0.2)
    // One minute each, with the connection 0.01 the scope does not raise.
    assert.equal(await callCosts(h, 'Pending edited', '01632 960 701', ['2026-02-20T10:00:00Z', '2026-03-05T10:00:00Z']), [0.21, 0.23])
    assert.is((await tariffOn(h, t, '2026-02-28')).baseCost, 0.2, 'not before the date')
    assert.is((await tariffOn(h, t, '2026-03-01')).baseCost, 0.22)
  })

  test('a price the scope does not raise stays as the PATCH set it after the date, beside one it raises', async ({ h }) => {
    const t = await raisedFromMarch(h, 'Pending outside', 'costOnly')
    await ok(h, 'PATCH', `/tariffs/${t}`, { baseCost: 0.2, baseCostConnection: 0.03 })
    assert.equal(await callCosts(h, 'Pending outside', '01632 960 702', ['2026-02-20T10:00:00Z', '2026-03-05T10:00:00Z']), [0.23, 0.25])
    const after = await tariffOn(h, t, '2026-03-01')
    assert.equal([after.baseCost, after.baseCostConnection], [0.22, 0.03])
    // allCharges raises the connection too: from its new value.
    const all = await raisedFromMarch(h, 'Pending all', 'allCharges')
    await ok(h, 'PATCH', `/tariffs/${all}`, { baseCostConnection: 0.03 })
    const raised = await tariffOn(h, all, '2026-03-01')
    assert.equal([raised.baseCost, raised.baseCostConnection], [0.055, 0.033])
  })

  test('a PATCH once the date has come, before the job ran, sets the price in force: the job leaves it', async ({ h }) => {
    const t = await raisedFromMarch(h, 'Pending due', 'costOnly')
    h.clock.set('2026-03-02T10:00:00Z')
    assert.is((await ok(h, 'PATCH', `/tariffs/${t}`, { baseCost: 0.3 })).baseCost, 0.3)
    assert.equal(await callCosts(h, 'Pending due', '01632 960 703', ['2026-02-20T10:00:00Z', '2026-03-05T10:00:00Z']), [0.31, 0.31])
    assert.is((await tariffOn(h, t, '2026-03-02')).baseCost, 0.3)
    // Nothing waits any more: another increase is not refused.
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 1, increaseScope: 'costOnly' })).status, 200)
  })

  test('a parent and its child each raised from their own date: the child pays the parent\'s raise from its date and its own from its', async ({ h }) => {
    h.clock.set('2026-02-15T10:00:00Z')
    const p = (await ok(h, 'POST', '/tariffs', { name: 'Dated parent', baseCostConnection: 0.05 })).id
    const child = (await ok(h, 'POST', '/tariffs', { name: 'Dated child', baseCost: 0.1, parentTariff: p })).id
    await ok(h, 'POST', `/tariffs/${p}/applyIncrease`, { increasePercent: 10, increaseScope: 'allCharges', increaseEffectiveDate: '2026-03-01' })
    await ok(h, 'POST', `/tariffs/${child}/applyIncrease`, { increasePercent: 10, increaseScope: 'costOnly', increaseEffectiveDate: '2026-04-01' })
    const starts = ['2026-02-20T10:00:00Z', '2026-03-15T10:00:00Z', '2026-04-15T10:00:00Z']
    // The child's 0.10 a minute (0.11 from April) plus the parent's connection 0.05 (0.055 from March).
    assert.equal(await callCosts(h, 'Dated child', '01632 960 704', starts), [0.15, 0.155, 0.165])
  })

  test.run()
}
