import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Increases of a tariff whose parent lends it prices (contract 9.6 with 17.5 and 17.7): a version
 * of a child prices every call as the child does, raised, before and after its parent's raises.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`tariff increases of child tariffs (17.7) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target) // today is 2026-01-15
  })
  test.after(async (ctx) => ctx.h.close())

  const act = (h: Harness, kind: string, id: string, action: string, body: unknown, key?: string) =>
    h.request('POST', `/${kind}/${id}/${action}`, body, key ? { key } : {})

  const rates = async (h: Harness, tariffID: string) => (await h.request('GET', `/tariffs/${tariffID}/tariffDetails`)).body

  test("a version of a child keeps the prices its parent lends as they stood before the parent's applied raise; one while the parent's raise of them is pending is refused", async ({ h }) => {
    h.clock.set('2026-02-15T10:00:00Z')
    const job = async () => {
      const s = h.platform.createScheduler({ onJobEnd: () => {} })
      await s.runNow('annual-increases')
      await s.stop()
    }
    const parent = (await h.request('POST', '/tariffs', { name: 'Lends with raise', baseCost: 0.1 })).body.id
    const child = (await h.request('POST', '/tariffs', { name: 'Borrows raised', baseCostConnection: 0, parentTariff: parent })).body.id
    assert.is((await act(h, 'tariffs', parent, 'applyIncrease', { increasePercent: 10, increaseScope: 'costOnly', increaseEffectiveDate: '2026-03-01' })).status, 200)
    const refused = await act(h, 'tariffs', child, 'createIncreaseVersion', { increasePercent: 20, increaseScope: 'costOnly' })
    assert.equal([refused.status, refused.body.error_code], [400, 400502])
    h.clock.set('2026-03-02T10:00:00Z')
    await job()
    const version = await act(h, 'tariffs', child, 'createIncreaseVersion', { increasePercent: 20, increaseScope: 'costOnly' })
    assert.equal([version.status, version.body.baseCost], [200, 0.132])
    const c = (await h.request('POST', '/customers', { defaultNationalTariff: version.body.name })).body.id
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 820' })).body.id
    const rows = ['2026-02-20T10:00:00Z', '2026-03-15T10:00:00Z'].map((s, i) => `01632960820,0163296300${i},${s},60,NAT,national,Gamma`)
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles?name=version-late.csv', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    // February at the parent's price then, raised (0.10 × 1.2); March at its raised price, raised.
    assert.equal(((await h.request('GET', `/numbers/${n}/calls`)).body as any[]).map((x) => x.cost), [0.12, 0.132])
  })

  test("createIncreaseVersion of a child tariff raises what its ancestors lend it too, and its own rows still decide first", async ({ h }) => {
    const post = async (path: string, body: object) => {
      const r = await h.request('POST', path, body)
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body
    }
    const grand = await post('/tariffs', { name: 'Lender', baseCostConnection: 0.04, baseRoundSeconds: 60 })
    await post(`/tariffs/${grand.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: 0.08 })
    const parent = await post('/tariffs', { name: 'Business', parentTariff: grand.id })
    await post(`/tariffs/${parent.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'day', cost: 0.1 })
    await post(`/tariffs/${parent.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'evening', cost: 0.05 })
    await post(`/tariffs/${parent.id}/tariffDetails`, { chargeBand: 'INT', timeBand: 'any', cost: 0.5 })
    const child = await post('/tariffs', { name: 'Trunk', parentTariff: parent.id })
    await post(`/tariffs/${child.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: 0.02, startDate: '2026-02-01' })

    const v = await act(h, 'tariffs', child.id, 'createIncreaseVersion', { increasePercent: 10, increaseScope: 'allCharges' })
    assert.is(v.status, 200, JSON.stringify(v.body))
    assert.is(v.body.baseCostConnection, 0.044, "the grandparent's connection, raised: 0.04 × 1.1")
    const shown = (await rates(h, v.body.id)).map((d: any) => [d.chargeBand, d.timeBand, d.startDate, d.endDate, d.cost])
    assert.equal(shown.sort(), [
      // The parent's day and evening rates only until the child's own NAT/any starts: from then
      // that row prices national calls in every time band, as it does on the child.
      ['INT', 'any', null, null, 0.55],
      ['MOB', 'any', null, null, 0.088],
      ['NAT', 'any', '2026-02-01', null, 0.022],
      ['NAT', 'day', null, '2026-01-31', 0.11],
      ['NAT', 'evening', null, '2026-01-31', 0.055],
    ])
  })

  test.run()
}
