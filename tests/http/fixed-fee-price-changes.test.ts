import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 17.5 on the tariff side: a change of a fixed fee tariff's prices takes effect, for each
 * feature it prices, from that feature's dueDate; periods already charged keep their prices.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`fixed fee tariff price changes keep what was charged [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after.each(async (ctx) => ctx.h.close())

  const monthly = { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', featureType: 'Line Rental' }
  const tariff = async (h: Harness, name: string, rows: object[], body: object = {}) => {
    const t = await h.request('POST', '/fixedFeeTariffs', { name, ...body })
    assert.is(t.status, 201, JSON.stringify(t.body))
    const ids: string[] = []
    for (const row of rows) {
      const r = await h.request('POST', `/fixedFeeTariffs/${t.body.id}/fixedFeeTariffDetails`, row)
      assert.is(r.status, 201, JSON.stringify(r.body))
      ids.push(r.body.id)
    }
    return { id: t.body.id as string, rows: ids }
  }
  /** A customer on `tariffName` with a Line Rental from 1 January, invoiced for January and February. */
  const chargedTwoMonths = async (h: Harness, tariffName: string) => {
    const c = await newCustomer(h, { fixedFeeTariff: tariffName })
    const f = await newFeature(h, c, monthly)
    await bill(h, '2026-02-01')
    h.clock.set('2026-03-01T09:00:00Z')
    return { c, f }
  }
  const ok = async (response: Promise<{ status: number; body: unknown }>, status = 200) => {
    const r = await response
    assert.is(r.status, status, JSON.stringify(r.body))
  }
  /** The feature's recurring rows as [type, from, amount]: a refund would show as a row of its own. */
  const recurring = async (h: Harness, f: string) =>
    (await ledgerOf(h, f)).filter((r) => r[0].startsWith('Recurring Charge')).map((r) => [r[0], r[1], r[3]])
  const keptThenNew = (march: number) => [
    ['Recurring Charge', '2026-01-01', 10],
    ['Recurring Charge', '2026-02-01', 10],
    ['Recurring Charge', '2026-03-01', march],
  ]

  test('a detail PATCHed to a new price charges it from the dueDate; January and February keep 10.00', async ({ h }) => {
    const t = await tariff(h, 'Rental', [{ description: 'rental', serviceCharge: 10 }])
    const { f } = await chargedTwoMonths(h, 'Rental')
    await ok(h.request('PATCH', `/fixedFeeTariffDetails/${t.rows[0]}`, { serviceCharge: 11 }))
    // Changed again the same day: the days already charged were written in once.
    await ok(h.request('PATCH', `/fixedFeeTariffDetails/${t.rows[0]}`, { serviceCharge: 12 }))
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, f), keptThenNew(12))
    assert.is((await h.request('GET', `/features/${f}`)).body.serviceCharge, null)
  })

  test('a detail DELETEd: the row left prices from the dueDate', async ({ h }) => {
    const t = await tariff(h, 'Rental', [
      { description: 'anything', serviceCharge: 8 },
      { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 10 },
    ])
    const { f } = await chargedTwoMonths(h, 'Rental')
    await ok(h.request('DELETE', `/fixedFeeTariffDetails/${t.rows[1]}`))
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, f), keptThenNew(8))
  })

  test('a detail POSTed with a startDate in the past prices from the dueDate, not from its start', async ({ h }) => {
    const t = await tariff(h, 'Rental', [{ description: 'anything', serviceCharge: 10 }])
    const { f } = await chargedTwoMonths(h, 'Rental')
    await ok(h.request('POST', `/fixedFeeTariffs/${t.id}/fixedFeeTariffDetails`, { featureTypes: ['Line Rental'], serviceCharge: 12, startDate: '2026-01-01' }), 201)
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, f), keptThenNew(12))
  })

  test("a customer's fixedFeeTariff repointed: the new tariff prices from the dueDate", async ({ h }) => {
    await tariff(h, 'Old', [{ serviceCharge: 10 }])
    await tariff(h, 'New', [{ serviceCharge: 12 }])
    const { c, f } = await chargedTwoMonths(h, 'Old')
    await ok(h.request('PATCH', `/customers/${c}`, { fixedFeeTariff: 'New' }))
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, f), keptThenNew(12))
  })

  test("a number's fixedFeeTariff and a tariff's parentFixedFeeTariff repointed: new prices from the dueDate", async ({ h }) => {
    await tariff(h, 'Old', [{ serviceCharge: 10 }])
    await tariff(h, 'New', [{ serviceCharge: 12 }])
    const higher = await tariff(h, 'Higher parent', [{ serviceCharge: 12 }])
    const child = await tariff(h, 'Child', [], { parentFixedFeeTariff: (await tariff(h, 'Lower parent', [{ serviceCharge: 10 }])).id })
    const c = await newCustomer(h)
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960001', fixedFeeTariff: 'Old' })).body.id
    const onNumber = (await h.request('POST', `/numbers/${number}/features`, monthly)).body.id
    const onChild = await newFeature(h, c, { ...monthly, fixedFeeTariff: 'Child' })
    await bill(h, '2026-02-01')
    h.clock.set('2026-03-01T09:00:00Z')
    await ok(h.request('PATCH', `/numbers/${number}`, { fixedFeeTariff: 'New' }))
    await ok(h.request('PATCH', `/fixedFeeTariffs/${child.id}`, { parentFixedFeeTariff: higher.id }))
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, onNumber), keptThenNew(12))
    assert.equal(await recurring(h, onChild), keptThenNew(12))
  })

  test("a parent tariff's detail changed: a child's feature already charged keeps its prices, one not yet charged takes the new price from its start", async ({ h }) => {
    const parent = await tariff(h, 'Parent', [{ serviceCharge: 10 }])
    await tariff(h, 'Child', [], { parentFixedFeeTariff: parent.id })
    const { c, f } = await chargedTwoMonths(h, 'Child')
    // Entered after the February run, from mid-February: nothing charged yet, its dueDate is its start.
    const late = await newFeature(h, c, { ...monthly, startDate: '2026-02-15' })
    assert.is((await h.request('GET', `/features/${late}`)).body.dueDate, '2026-02-15')
    await ok(h.request('PATCH', `/fixedFeeTariffDetails/${parent.rows[0]}`, { serviceCharge: 12 }))
    await bill(h, '2026-03-01')
    assert.equal(await recurring(h, f), keptThenNew(12))
    assert.equal(await recurring(h, late), [
      ['Recurring Charge', '2026-02-15', 6],
      ['Recurring Charge', '2026-03-01', 12],
    ])
  })

  test.run()
}
