import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 17.5's increases and 17.6's annual increase dates, through the API on every database:
 * calls and recurring charges priced by the price in force at their start, each amount computed by hand.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`increases take effect when they say [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const invoices = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
  const totals = async (h: Harness, c: string) => (await invoices(h, c)).map((i) => i.totalAmount)
  const patch = async (h: Harness, f: string, body: Record<string, unknown>) => {
    const r = await h.request('PATCH', `/features/${f}`, body)
    assert.is(r.status, 200, JSON.stringify(r.body))
    return r.body
  }

  const increasesJob = async (h: Harness) => {
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('annual-increases')
    await scheduler.stop()
  }

  test('an increase from 29 February falls on 28 February in common years and 29 February in leap years, however often the job runs', async ({ h }) => {
    h.clock.set('2024-02-01T10:00:00Z')
    const c = await newCustomer(h)
    const body = { serviceCharge: 100, startDate: '2024-01-01', annualIncreaseReferenceDate: '2024-02-29', annualIncreaseProfile: 'Fixed 5%' }
    const yearly = await newFeature(h, c, body)
    const once = await newFeature(h, c, body)
    const increases = async (f: string) =>
      ((await h.request('GET', `/features/${f}/history`)).body as any[]).filter((e) => e.action === 'annualIncrease').map((e) => e.changes.lastUpdatedDate?.[1] ?? null)
    // The yearly feature is raised each year; the other one's date is taken away from the job until 2028.
    await patch(h, once, { annualIncreaseProfile: 'No Increase' })
    for (const year of [2024, 2025, 2026, 2027]) {
      h.clock.set(`${year}-03-01T10:00:00Z`)
      await increasesJob(h)
    }
    await patch(h, once, { annualIncreaseProfile: 'Fixed 5%', annualIncreaseReferenceDate: '2024-02-29' })
    h.clock.set('2028-03-01T10:00:00Z')
    await increasesJob(h)
    const dates = ['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']
    assert.equal(await increases(yearly), dates)
    assert.equal(await increases(once), dates)
    const [a, b] = [(await h.request('GET', `/features/${yearly}`)).body, (await h.request('GET', `/features/${once}`)).body]
    // 100 → 105 → 110.25 → 115.7625 → 121.550625 → 121.5506 (half up to 4 places) → 127.62813 → 127.6281.
    assert.equal([a.serviceCharge, a.annualIncreaseReferenceDate], [127.6281, '2029-02-28'])
    assert.equal([b.serviceCharge, b.annualIncreaseReferenceDate], [127.6281, '2029-02-28'])
  })
  test('applyIncrease from a later date: calls before it keep the old price, calls from it pay the new one, rates split on the date', async ({ h }) => {
    h.clock.set('2026-02-15T10:00:00Z')
    const t = (await h.request('POST', '/tariffs', { name: 'Dated national', baseCost: 0.05, baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.10' })
    const raised = await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'costOnly', increaseEffectiveDate: '2026-03-01' })
    assert.is(raised.status, 200, JSON.stringify(raised.body))
    // The tariff's own price changes on the date, not now; the increase is recorded now.
    assert.equal([raised.body.baseCost, raised.body.increaseEffectiveDate, raised.body.increasePercent], [0.05, '2026-03-01', 10])
    const details = (await h.request('GET', `/tariffs/${t}/tariffDetails`)).body as any[]
    assert.equal(details.map((d) => [d.startDate, d.endDate, d.cost]), [[null, '2026-02-28', 0.1], ['2026-03-01', null, 0.11]])
    // A second increase while the tariff's own prices wait for their date is refused.
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 1, increaseScope: 'costOnly' })).body.error_code, 400502)

    const c = await newCustomer(h, { defaultNationalTariff: 'Dated national' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 777' })).body.id
    const rows = [
      '01632960777,01632960001,2026-02-20T10:00:00Z,60,NAT,national,Gamma',
      '01632960777,01632960002,2026-03-05T10:00:00Z,60,NAT,national,Gamma',
      '01632960777,01632960003,2026-02-20T11:00:00Z,60,OTHER,national,Gamma',
      '01632960777,01632960004,2026-03-05T11:00:00Z,60,OTHER,national,Gamma',
    ]
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
    const up = await h.request('POST', '/usageFiles?name=dated.csv', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })
    assert.is(up.status, 201, JSON.stringify(up.body))
    const calls = (await h.request('GET', `/numbers/${n}/calls`)).body as any[]
    // One minute each: the rate 0.10 then 0.11; the tariff's own 0.05 then 0.055 (no rounding step set).
    assert.equal(calls.map((x) => x.cost), [0.1, 0.11, 0.05, 0.055])

    // The daily job moves the raised prices into the tariff once the date has come, and no earlier.
    await increasesJob(h)
    assert.is((await h.request('GET', `/tariffs/${t}`)).body.baseCost, 0.05)
    h.clock.set('2026-03-01T10:00:00Z')
    await increasesJob(h)
    assert.is((await h.request('GET', `/tariffs/${t}`)).body.baseCost, 0.055)
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 1, increaseScope: 'costOnly' })).status, 200)
  })

  test('dated increases the daily job has applied: a late file prices each call by the tariff price in force at its start', async ({ h }) => {
    h.clock.set('2026-02-15T10:00:00Z')
    const t = (await h.request('POST', '/tariffs', { name: 'Applied dated', baseCost: 0.1 })).body.id
    const c = await newCustomer(h, { defaultNationalTariff: 'Applied dated' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 778' })).body.id
    // +10% from 1 March, applied by the job on 2 March; then +10% from 1 April, applied on 2 April.
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'costOnly', increaseEffectiveDate: '2026-03-01' })).status, 200)
    h.clock.set('2026-03-02T10:00:00Z')
    await increasesJob(h)
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'costOnly', increaseEffectiveDate: '2026-04-01' })).status, 200)
    h.clock.set('2026-04-02T10:00:00Z')
    await increasesJob(h)
    assert.is((await h.request('GET', `/tariffs/${t}`)).body.baseCost, 0.121)
    // A late file of calls from before either date arrives after both were applied.
    const rows = ['2026-02-28T12:00:00Z', '2026-03-01T12:00:00Z', '2026-03-31T12:00:00Z', '2026-04-01T12:00:00Z'].map((s, i) => `01632960778,0163296100${i},${s},60,NAT,national,Gamma`)
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles?name=late-dated.csv', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    const calls = (await h.request('GET', `/numbers/${n}/calls`)).body as any[]
    assert.equal(calls.map((x) => x.cost), [0.1, 0.11, 0.11, 0.121])
  })

  test("an increase with no date changes the tariff's own prices from today: a late file's call of the day before keeps the price it had, as a rate row's does", async ({ h }) => {
    h.clock.set('2026-05-10T10:00:00Z')
    const t = (await h.request('POST', '/tariffs', { name: 'Applied today', baseCost: 0.1 })).body.id
    await h.request('POST', `/tariffs/${t}/tariffDetails`, { chargeBand: 'INT', timeBand: 'any', cost: 0.5 })
    const c = await newCustomer(h, { defaultNationalTariff: 'Applied today' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 779' })).body.id
    assert.is((await h.request('POST', `/tariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'costOnly' })).body.baseCost, 0.11)
    h.clock.set('2026-05-11T10:00:00Z')
    const rows = ['2026-05-09T12:00:00Z,60,NAT', '2026-05-10T12:00:00Z,60,NAT', '2026-05-09T13:00:00Z,60,INT', '2026-05-10T13:00:00Z,60,INT'].map((r, i) => {
      const [start, seconds, band] = r.split(',')
      return `01632960779,0163296200${i},${start},${seconds},${band},national,Gamma`
    })
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles?name=late-today.csv', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    const calls = (await h.request('GET', `/numbers/${n}/calls`)).body as any[]
    assert.equal(calls.map((x) => x.cost), [0.1, 0.11, 0.5, 0.55])
  })

  test('a fixed fee tariff raised from a later date changes recurring charges from that date, as a replace change', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Dated rental' })).body.id
    await h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, { description: 'Rental', serviceCharge: 10 })
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Monthly', fixedFeeTariff: 'Dated rental' })
    await bill(h, '2026-01-01')
    h.clock.set('2026-02-10T10:00:00Z')
    const r = await h.request('POST', `/fixedFeeTariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'recurringOnly', increaseEffectiveDate: '2026-03-15' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    await bill(h, '2026-03-01')
    // January and February at 10.00; March 1-14 at 10.00 × 14/31 = 4.52, March 15-31 at 11.00 × 17/31 = 6.03.
    assert.equal((await ledgerOf(h, f)).map((x) => [x[1], x[2], x[3]]), [
      ['2026-01-01', '2026-01-31', 10],
      ['2026-02-01', '2026-02-28', 10],
      ['2026-03-01', '2026-03-14', 4.52],
      ['2026-03-15', '2026-03-31', 6.03],
    ])
  })
  test('a fixed fee tariff raised with no date changes recurring charges from today: the periods invoiced before keep their price', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Undated rental' })).body.id
    const rental = (await h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, { description: 'Rental', serviceCharge: 10 })).body.id
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', fixedFeeTariff: 'Undated rental' })
    await bill(h, '2026-02-01')
    h.clock.set('2026-03-01T10:00:00Z')
    const r = await h.request('POST', `/fixedFeeTariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'recurringOnly' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    // The rate keeps its ID with the raised price; its old price is kept for the days before.
    const details = (await h.request('GET', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`)).body as any[]
    assert.equal(details.map((d) => [d.id === rental, d.startDate, d.endDate, d.serviceCharge]), [[true, '2026-03-01', null, 11], [false, null, '2026-02-28', 10]])
    await bill(h, '2026-03-01')
    assert.equal((await ledgerOf(h, f)).map((x) => [x[0], x[1], x[3]]), [
      ['Recurring Charge', '2026-01-01', 10],
      ['Recurring Charge', '2026-02-01', 10],
      ['Recurring Charge', '2026-03-01', 11],
    ])
    assert.equal(await totals(h, c), [20, 11])
  })

  test.run()
}
