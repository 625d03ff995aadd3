import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { applyAnnualIncreases } from '../../core/billing/annual-increases.js'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 11's annual increase against what else is scheduled, on every database: a price a person
 * set for a later date is kept, and a feature dropped from a later date is raised while still billed.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`annual increase windows [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-15T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const recurring = async (h: Harness, f: string) => (await ledgerOf(h, f)).filter((r) => r[0] === 'Recurring Charge').map((r) => `${r[1]} ${r[3]}`)
  const get = async (h: Harness, f: string) => (await h.request('GET', `/features/${f}`)).body
  const monthly = { serviceCharge: 10, serviceChargeInterval: 'Calendar Monthly', startDate: '2026-01-01' }
  const patch = async (h: Harness, f: string, body: Record<string, unknown>) => {
    const r = await h.request('PATCH', `/features/${f}`, body)
    assert.is(r.status, 200, JSON.stringify(r.body))
  }
  /** The job at 00:20 on `day`, twice: the second run finds nothing due. */
  const increase = async (h: Harness, day: string) => {
    h.clock.set(`${day}T00:20:00.000Z`)
    const raised = await applyAnnualIncreases(h.platform.context)
    assert.is(await applyAnnualIncreases(h.platform.context), 0)
    return raised
  }

  test('a price scheduled for a later date is kept; a later change of count only keeps the raise', async ({ h }) => {
    h.clock.set('2026-01-15T10:00:00.000Z')
    const c = await newCustomer(h, { annualIncreaseReferenceDate: '2026-03-01', annualIncreaseProfile: 'Fixed 5%' })
    const priced = await newFeature(h, c, monthly)
    const counted = await newFeature(h, c, monthly)
    // Caught up after the job was down a year: 1 March 2025 and 2026 are both due on the first run.
    const late = await newFeature(h, c, { ...monthly, startDate: '2025-01-01', annualIncreaseReferenceDate: '2025-03-01' })
    await patch(h, priced, { serviceCharge: 20, updatedDate: '2026-06-01' })
    await patch(h, counted, { featureCount: 2, updatedDate: '2026-05-01' })
    await patch(h, late, { serviceCharge: 20, updatedDate: '2025-06-01' })

    assert.is(await increase(h, '2026-03-01'), 3)
    assert.equal([(await get(h, priced)).serviceCharge, (await get(h, priced)).annualIncreaseReferenceDate], [20, '2027-03-01'])
    assert.is((await get(h, counted)).serviceCharge, 10.5)
    h.clock.set('2026-07-02T10:00:00.000Z')
    await bill(h, '2026-07-01')
    const months = (amounts: number[], from = 1, year = 2026) =>
      amounts.map((a, i) => `${year + Math.floor((from - 1 + i) / 12)}-${String(((from - 1 + i) % 12) + 1).padStart(2, '0')}-01 ${a}`)
    // 10.50 from the increase to the agreed June price, which stays 20.00.
    assert.equal(await recurring(h, priced), months([10, 10, 10.5, 10.5, 10.5, 20, 20]))
    // Two at 10.50 from May: the count changed, not the price.
    assert.equal(await recurring(h, counted), months([10, 10, 10.5, 10.5, 21, 21, 21]))
    // 2025: 10.50 March to May, then the agreed 20.00, raised on 1 March 2026 to 21.00.
    assert.equal(await recurring(h, late), [...months([10, 10, 10.5, 10.5, 10.5, 20, 20, 20, 20, 20, 20, 20], 1, 2025), ...months([20, 20, 21, 21, 21, 21, 21])])

    // The next year raises the agreed price in its turn.
    assert.is(await increase(h, '2027-03-01'), 3)
    assert.equal([(await get(h, priced)).serviceCharge, (await get(h, late)).serviceCharge], [21, 22.05])
  })

  test('a day the fixed fee tariff prices is left to tariff increases: the job raises none of it, not even with a price of its own scheduled later', async ({ h }) => {
    h.clock.set('2026-01-15T10:00:00.000Z')
    const t = await h.request('POST', '/fixedFeeTariffs', { name: 'Windows Business' })
    assert.is((await h.request('POST', `/fixedFeeTariffs/${t.body.id}/fixedFeeTariffDetails`, { serviceCharge: 7 })).status, 201)
    const c = await newCustomer(h, { annualIncreaseReferenceDate: '2026-03-01', annualIncreaseProfile: 'Fixed 5%' })
    const f = await newFeature(h, c, monthly)
    await patch(h, f, { serviceCharge: null, fixedFeeTariff: 'Windows Business', updatedDate: '2026-02-01' })
    await patch(h, f, { serviceCharge: 20, updatedDate: '2026-06-01' })
    await increase(h, '2026-03-01')
    await bill(h, '2026-07-01')
    // Contract 11: "Features priced by a fixed fee tariff are left to tariff increases".
    assert.equal(await recurring(h, f), ['2026-01-01 10', '2026-02-01 7', '2026-03-01 7', '2026-04-01 7', '2026-05-01 7', '2026-06-01 20', '2026-07-01 20'])
  })

  test('a feature dropped from a later date is raised while billed, never past its bill-to date', async ({ h }) => {
    h.clock.set('2026-02-10T10:00:00.000Z')
    const c = await newCustomer(h, { annualIncreaseReferenceDate: '2026-03-01', annualIncreaseProfile: 'Fixed 5%' })
    const [kept, notice, term, midMonth, gone] = [
      await newFeature(h, c, monthly),
      await newFeature(h, c, monthly),
      await newFeature(h, c, { ...monthly, minimumTermPeriodLength: 3, minimumTermPeriodLengthType: 'months' }),
      await newFeature(h, c, monthly),
      await newFeature(h, c, monthly),
    ]
    const drop = async (f: string, dateDrop: string) => (await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop })).billToDate
    assert.is(await drop(notice, '2026-05-31'), '2026-05-31')
    assert.is(await drop(term, '2026-02-10'), '2026-03-31') // the minimum term runs to 31 March
    assert.is(await drop(midMonth, '2026-03-15'), '2026-03-15')
    assert.is(await drop(gone, '2026-02-20'), '2026-02-20')

    assert.is(await increase(h, '2026-03-01'), 4)
    assert.equal(await Promise.all([kept, notice, term, midMonth, gone].map(async (f) => (await get(h, f)).serviceCharge)), [10.5, 10.5, 10.5, 10.5, 10])
    // A person's change to a dropped feature is still refused.
    assert.is((await h.request('PATCH', `/features/${notice}`, { serviceCharge: 30 })).body.error_code, 400502)

    h.clock.set('2026-07-02T10:00:00.000Z')
    await bill(h, '2026-07-01')
    const amounts = async (f: string) => (await recurring(h, f)).map((r) => Number(r.split(' ')[1]))
    assert.equal(await amounts(kept), [10, 10, 10.5, 10.5, 10.5, 10.5, 10.5])
    assert.equal(await amounts(notice), [10, 10, 10.5, 10.5, 10.5])
    assert.equal(await amounts(term), [10, 10, 10.5])
    assert.equal(await amounts(midMonth), [10, 10, 5.08]) // 10.50 × 15/31
    assert.equal(await amounts(gone), [10, 7.14]) // 10.00 × 20/28, never raised
  })

  test('a raise beyond the amounts the API accepts is not made: that feature is left as it is, the others raised', async ({ h }) => {
    h.clock.set('2026-01-15T10:00:00.000Z')
    const c = await newCustomer(h, { annualIncreaseReferenceDate: '2026-03-01', annualIncreaseProfile: 'Fixed 5%' })
    const small = await newFeature(h, c, monthly)
    const huge = await newFeature(h, c, { ...monthly, serviceCharge: '99999999999.9999' })
    const before = await get(h, huge)
    const history = (await h.request('GET', `/features/${huge}/history`)).body.length
    h.clock.set('2026-03-01T00:20:00.000Z')
    assert.is(await applyAnnualIncreases(h.platform.context), 1)
    assert.is((await get(h, small)).serviceCharge, 10.5)
    assert.equal(await get(h, huge), before, 'nothing of it written: its GET still round-trips')
    assert.is((await h.request('GET', `/features/${huge}/history`)).body.length, history)
    assert.is((await h.request('PATCH', `/features/${huge}`, before)).status, 200)
  })

  test.run()
}
