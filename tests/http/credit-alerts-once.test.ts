import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { refreshCreditAlerts } from '../../core/credit/credit-alerts.js'
import { mergePresets } from '../../core/presets/presets.js'
import { newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A limit passed is announced and acted on once (contract 10.6, README "Credit limits that act"),
 * however many measures of the customer run at once: an import's batches measured while the next
 * is written, or two transactions. Written once, run against every database.
 */
const presets = mergePresets({ dunningProfiles: { Barring: { steps: [], onCreditLimit: 'bar' } } })
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const events = async (h: Harness, type: string, customerID: string) =>
  ((await h.request('GET', `/events?idAfter=0&limit=1000&type=${type}`)).body as any[]).filter((e) => (e.data.customerID ?? e.data.number?.customerID ?? e.data.id) === customerID)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`credit limits passed once, however the measures meet [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-15T09:00:00Z', presets })
    const t = await ctx.h.request('POST', '/tariffs', { name: 'Once', baseRoundSeconds: 1 })
    assert.is((await ctx.h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.60' })).status, 201)
  })
  test.after(async (ctx) => ctx.h.close())

  test('one import of several batches passing creditLimitCalls: one credit_alert, one bar_requested', async ({ h }) => {
    const c = await newCustomer(h, { creditLimitCalls: 1, dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected', defaultNationalTariff: 'Once' })
    assert.is((await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960001' })).status, 201)
    // Three batches of 1,000 calls at 0.60: the first passes the limit, the others are inserted while it is measured.
    const rows = Array.from({ length: 3000 }, (_, i) => `01632960001,01632960999,${new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19)},60,NAT,national,G`)
    const r = await h.request('POST', '/usageFiles?name=many.csv', undefined, { raw: [header, ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
    assert.is(r.status, 201, r.text)
    assert.is(r.body.imported, 3000)
    assert.equal((await h.request('GET', `/customers/${c}`)).body.creditAlerts, ['creditLimitCalls'])
    assert.is((await events(h, 'customer.credit_alert', c)).length, 1, 'announced once')
    assert.is((await events(h, 'number.bar_requested', c)).length, 1, 'barred once')
  })

  test('two measures at once, in one transaction or in two: the alert and a number newly over its limit act once', async ({ h }) => {
    const c = await newCustomer(h, { creditLimit: 10, dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960002', creditLimit: 1 })).body.id
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Call Charges', amount: 20, numberID: n, transactionDate: '2026-01-15' })).status, 201)
    assert.equal((await h.request('GET', `/customers/${c}`)).body.creditAlerts, ['creditLimit', 'numberCreditLimit'])
    const { store } = h.platform.context
    const measure = (s: typeof store) => refreshCreditAlerts(s, [c], h.clock.now(), { act: h.platform.context })
    let announced = 1
    for (const together of ['one transaction', 'two transactions']) {
      // As if the measure before had not seen it: no alert stored, the number not marked over.
      await store.creditControl.setCreditAlerts(c, [])
      await store.creditControl.markNumbersOver([n], false)
      if (together === 'one transaction') await store.transaction((s) => Promise.all([measure(s), measure(s)]))
      else await Promise.all([store.transaction(measure), store.transaction(measure)])
      announced++
      assert.is((await events(h, 'customer.credit_alert', c)).length, announced, `${together}: announced once`)
      assert.is((await events(h, 'number.bar_requested', c)).length, announced, `${together}: the number barred once`)
    }
  })

  test.run()
}
