import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type ApiResponse, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A fixed fee tariff's write beside a feature's PATCH naming it (contract 17.5, 17.7). The
 * tariff's write (a new detail, a new parent) locks the tariff and then writes the charged
 * features it prices; the feature's PATCH holds its tariff's name until it commits. Taken the
 * other way round, Postgres found a deadlock and answered one of them 500. Both now succeed,
 * whichever commits first, and the next run prices March with the new detail. Each pair is fired
 * several times: on Postgres the requests really overlap. Written once, run against every database.
 */
const ROUNDS = 5
const answer = (r: ApiResponse) => `${r.status}${r.body?.error_code ? `/${r.body.error_code}` : ''}`
const monthly = { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', featureType: 'Line Rental' }
const created = async (h: Harness, path: string, body: unknown): Promise<string> => {
  const r = await h.request('POST', path, body)
  assert.is(r.status, 201, r.text)
  return r.body.id
}

/** A fixed fee tariff of 10.00 and a feature inherited it from its customer, charged for January and February. */
interface Priced {
  readonly tariff: string
  readonly name: string
  readonly feature: string
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; detail: Priced[]; parent: Priced[]; parentID: string }>(`a fixed fee tariff written beside a feature naming it [${target}]`)
  test.before(async (ctx) => {
    const h = (ctx.h = await openHarness(target))
    const priced = async (name: string): Promise<Priced> => {
      const tariff = await created(h, '/fixedFeeTariffs', { name })
      await created(h, `/fixedFeeTariffs/${tariff}/fixedFeeTariffDetails`, { description: 'rental', serviceCharge: 10 })
      const feature = await newFeature(h, await newCustomer(h, { fixedFeeTariff: name }), monthly)
      return { tariff, name, feature }
    }
    ctx.parentID = await created(h, '/fixedFeeTariffs', { name: 'Parent' })
    await created(h, `/fixedFeeTariffs/${ctx.parentID}/fixedFeeTariffDetails`, { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 12 })
    ctx.detail = []
    ctx.parent = []
    for (let i = 0; i < ROUNDS; i++) {
      ctx.detail.push(await priced(`Detail ${i}`))
      // A child's own row for anything but Line Rental: its parent's lends Line Rental (contract 17.7).
      const child = await created(h, '/fixedFeeTariffs', { name: `Child ${i}` })
      await created(h, `/fixedFeeTariffs/${child}/fixedFeeTariffDetails`, { description: 'rental', featureTypes: ['Support'], serviceCharge: 10 })
      await created(h, `/fixedFeeTariffs/${child}/fixedFeeTariffDetails`, { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 10, endDate: '2026-02-28' })
      ctx.parent.push({ tariff: child, name: `Child ${i}`, feature: await newFeature(h, await newCustomer(h, { fixedFeeTariff: `Child ${i}` }), monthly) })
    }
    await bill(h, '2026-02-01')
    h.clock.set('2026-03-01T09:00:00Z')
  })
  test.after(async (ctx) => ctx.h.close())

  /** The feature's recurring charges as [from, amount]. */
  const recurring = async (h: Harness, f: string) =>
    (await ledgerOf(h, f)).filter((r) => r[0].startsWith('Recurring Charge')).map((r) => [r[1], r[3]])
  const charged = [
    ['2026-01-01', 10],
    ['2026-02-01', 10],
    ['2026-03-01', 12],
  ]

  test('a detail POSTed beside a PATCH of a feature it prices naming it: both succeed', async ({ h, detail }) => {
    for (const { tariff, name, feature } of detail) {
      const [post, patch] = await Promise.all([
        h.request('POST', `/fixedFeeTariffs/${tariff}/fixedFeeTariffDetails`, { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 12 }),
        h.request('PATCH', `/features/${feature}`, { fixedFeeTariff: name }),
      ])
      assert.is(`${answer(post)} ${answer(patch)}`, '201 200')
    }
  })

  test('a parent given to the tariff beside a PATCH of a feature it prices naming it: both succeed', async ({ h, parent, parentID }) => {
    for (const { tariff, name, feature } of parent) {
      const [put, patch] = await Promise.all([
        h.request('PATCH', `/fixedFeeTariffs/${tariff}`, { parentFixedFeeTariff: parentID }),
        h.request('PATCH', `/features/${feature}`, { fixedFeeTariff: name }),
      ])
      assert.is(`${answer(put)} ${answer(patch)}`, '200 200')
    }
  })

  test('March is priced by the new detail or parent; January and February keep 10.00', async ({ h, detail, parent }) => {
    await bill(h, '2026-03-01')
    for (const { feature } of [...detail, ...parent]) assert.equal(await recurring(h, feature), charged, `feature ${feature}`)
  })

  test.run()
}
