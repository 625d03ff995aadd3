import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`fixed fee tariff pricing [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a feature without its own charge takes the most specific matching row of the applicable tariff, by date', async ({ h }) => {
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Business' })).body.id
    const row = (body: object) => h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, body)
    await row({ description: 'anything', serviceCharge: 10, connectionCharge: 50 })
    await row({ description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 15, endDate: '2026-02-28' })
    await row({ description: 'line rental 2026-03', featureTypes: ['Line Rental'], serviceCharge: 17, startDate: '2026-03-01' })
    await row({ description: 'mobile line rental', featureTypes: ['Line Rental'], numberTypes: ['Mobile'], serviceCharge: 20 })
    const other = (await h.request('POST', '/fixedFeeTariffs', { name: 'Other' })).body.id
    await h.request('POST', `/fixedFeeTariffs/${other}/fixedFeeTariffDetails`, { serviceCharge: 99 })

    const c = await newCustomer(h, { fixedFeeTariff: 'Business' })
    const mobile = (await h.request('POST', `/customers/${c}/numbers`, { number: '07700 900001', numberType: 'Mobile' })).body.id
    const monthly = { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' }
    const rental = await newFeature(h, c, { ...monthly, featureType: 'Line Rental' })
    const onMobile = (await h.request('POST', `/numbers/${mobile}/features`, { ...monthly, featureType: 'Line Rental' })).body.id
    const support = await newFeature(h, c, { ...monthly, featureType: 'Support' })
    const own = await newFeature(h, c, { ...monthly, featureType: 'Line Rental', serviceCharge: 5, connectionCharge: 0 })
    const overridden = await newFeature(h, c, { ...monthly, featureType: 'Line Rental', fixedFeeTariff: 'Other' })
    await bill(h, '2026-03-01')
    const recurring = async (f: string) => (await ledgerOf(h, f)).filter((r) => r[0] === 'Recurring Charge').map((r) => r[3])
    // Line Rental: 15 in Jan and Feb (the dated row ends Feb 28), 17 from March
    assert.equal(await recurring(rental), [15, 15, 17])
    // on a Mobile number, the row matching both lists wins: 20
    assert.equal(await recurring(onMobile), [20, 20, 20])
    // Support matches only the catch-all row: 10, and its connection charge 50
    assert.equal(await recurring(support), [10, 10, 10])
    assert.ok((await ledgerOf(h, support)).some((r) => r[0] === 'Connection Charge' && r[3] === 50))
    // its own charge wins over the tariff
    assert.equal(await recurring(own), [5, 5, 5])
    // the feature's own fixedFeeTariff wins over the customer's
    assert.equal(await recurring(overridden), [99, 99, 99])
    assert.is((await h.request('GET', `/features/${rental}`)).body.dueDate, '2026-04-01')
  })

  test('a row for the Connection Charge transaction type prices the connection; a row for Recurring Charge the periods', async ({ h }) => {
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Split by type' })).body.id
    const row = async (body: object) => assert.is((await h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, body)).status, 201)
    await row({ description: 'installation', transactionTypes: ['Connection Charge'], connectionCharge: 99 })
    await row({ description: 'rental', transactionTypes: ['Recurring Charge'], serviceCharge: 20 })
    const c = await newCustomer(h, { fixedFeeTariff: 'Split by type' })
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', featureType: 'Line Rental' })
    await bill(h, '2026-01-01')
    assert.equal((await ledgerOf(h, f)).map((r) => [r[0], r[3]]), [['Connection Charge', 99], ['Recurring Charge', 20]])
  })

  test('parent fixed fee tariffs (17.7): a child lacking a row for the types takes the nearest ancestor\'s', async ({ h }) => {
    const tariff = async (name: string, parentFixedFeeTariff: string | null, rows: object[]) => {
      const t = await h.request('POST', '/fixedFeeTariffs', { name, ...(parentFixedFeeTariff ? { parentFixedFeeTariff } : {}) })
      assert.is(t.status, 201, JSON.stringify(t.body))
      for (const body of rows) assert.is((await h.request('POST', `/fixedFeeTariffs/${t.body.id}/fixedFeeTariffDetails`, body)).status, 201)
      return t.body.id as string
    }
    const grand = await tariff('Grand', null, [
      { description: 'anything', serviceCharge: 10, connectionCharge: 50 },
      { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 15 },
    ])
    const parent = await tariff('Parent', grand, [{ description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 12 }])
    await tariff('Child', parent, [{ description: 'support', featureTypes: ['Support'], serviceCharge: 8 }])
    const c = await newCustomer(h, { fixedFeeTariff: 'Child' })
    const monthly = { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' }
    const rental = await newFeature(h, c, { ...monthly, featureType: 'Line Rental' })
    const support = await newFeature(h, c, { ...monthly, featureType: 'Support' })
    const seat = await newFeature(h, c, { ...monthly, featureType: 'Hosted Seat' })
    await bill(h, '2026-02-01')
    const recurring = async (f: string) => (await ledgerOf(h, f)).filter((r) => r[0] === 'Recurring Charge').map((r) => r[3])
    // Line Rental: the child has no row for it; the parent's 12, not the grandparent's 15.
    assert.equal(await recurring(rental), [12, 12])
    // Support: the child's own 8 (more specific than the lent catch-all).
    assert.equal(await recurring(support), [8, 8])
    // Hosted Seat: only the grandparent's catch-all matches, 10 with its connection charge 50.
    assert.equal(await recurring(seat), [10, 10])
    assert.ok((await ledgerOf(h, seat)).some((r) => r[0] === 'Connection Charge' && r[3] === 50))
  })

  test("parent fixed fee tariffs (17.7): a child's own row that matches decides before any its parent lends, whatever the parent's specificity or dates", async ({ h }) => {
    const tariff = async (name: string, parentFixedFeeTariff: string | null, rows: object[]) => {
      const t = await h.request('POST', '/fixedFeeTariffs', { name, ...(parentFixedFeeTariff ? { parentFixedFeeTariff } : {}) })
      assert.is(t.status, 201, JSON.stringify(t.body))
      for (const body of rows) assert.is((await h.request('POST', `/fixedFeeTariffs/${t.body.id}/fixedFeeTariffDetails`, body)).status, 201)
      return t.body.id as string
    }
    const parent = await tariff('Lending parent', null, [
      { description: 'line rental', featureTypes: ['Line Rental'], transactionTypes: ['Recurring Charge'], serviceCharge: 15 },
      { description: 'support', featureTypes: ['Support'], serviceCharge: 9 },
    ])
    await tariff('Own first', parent, [
      { description: 'line rental', featureTypes: ['Line Rental'], serviceCharge: 4 },
      { description: 'support from March', featureTypes: ['Support'], serviceCharge: 6, startDate: '2026-03-01' },
    ])
    const c = await newCustomer(h, { fixedFeeTariff: 'Own first' })
    const monthly = { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' }
    const rental = await newFeature(h, c, { ...monthly, featureType: 'Line Rental' })
    const support = await newFeature(h, c, { ...monthly, featureType: 'Support' })
    await bill(h, '2026-03-01')
    const recurring = async (f: string) => (await ledgerOf(h, f)).filter((r) => r[0] === 'Recurring Charge').map((r) => r[3])
    // Line Rental: the child's own 4 matches, so the parent's more specific 15 is not lent.
    assert.equal(await recurring(rental), [4, 4, 4])
    // Support: the child's own row starts in March; before it none of the child's rows matches,
    // so the parent's 9 prices January and February.
    assert.equal(await recurring(support), [9, 9, 6])
  })

  test.run()
}
