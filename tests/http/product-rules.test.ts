import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { applyAnnualIncreases } from '../../core/billing/annual-increases.js'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** Contract 11 through the API, on every database: templates, terms, discounts, instalments, increases. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`product rules [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-15T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const recurring = async (h: Harness, f: string, type = 'Recurring Charge') => (await ledgerOf(h, f)).filter((r) => r[0] === type).map((r) => r[3])

  test('a standard feature takes the template fields the request leaves out; an unknown one is refused', async ({ h }) => {
    const c = await newCustomer(h)
    const seat = (await h.request('GET', `/features/${await newFeature(h, c, { standardFeature: 'Hosted Seat', featureCount: 2, startDate: '2026-01-01' })}`)).body
    assert.equal([seat.featureType, seat.serviceCharge, seat.serviceChargeInterval, seat.connectionCharge], ['Hosted Seat', 12.5, 'Monthly', 25])
    const own = (await h.request('GET', `/features/${await newFeature(h, c, { standardFeature: 'Hosted Seat', serviceCharge: 10, connectionCharge: null })}`)).body
    assert.equal([own.serviceCharge, own.connectionCharge, own.featureType], [10, null, 'Hosted Seat'])
    const bad = await h.request('POST', `/customers/${c}/features`, { standardFeature: 'Gold Plated' })
    assert.is(bad.status, 400)
    assert.match(JSON.stringify(bad.body), /standardFeature/)
  })

  test('term lengths give term dates, given dates win; Initial and Peak Count keep the committed count', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, {
      serviceCharge: 5,
      startDate: '2026-01-31',
      minimumTermPeriodLength: 36,
      minimumTermPeriodLengthType: 'months',
      committedTermPeriodLength: 2,
      committedTermPeriodLengthType: 'years',
      renewalPeriodLength: 1,
      renewalPeriodLengthType: 'months',
      featureCount: 3,
      featureCountCommittedAuto: 'Initial Count',
    })
    const got = (await h.request('GET', `/features/${f}`)).body
    assert.equal([got.minimumTermDate, got.committedTermDate, got.renewalDate, got.featureCountCommitted], ['2029-01-30', '2028-01-30', '2026-02-28', 3])
    const given = (await h.request('POST', `/customers/${c}/features`, { startDate: '2026-01-31', minimumTermPeriodLength: 12, minimumTermDate: '2026-06-30' })).body
    assert.is(given.minimumTermDate, '2026-06-30')
    // The date sent back unchanged beside a new length is still given (a GET -> edit -> PATCH): it wins.
    const kept = await h.request('PATCH', `/features/${given.id}`, { minimumTermPeriodLength: 24, minimumTermDate: '2026-06-30' })
    assert.is(kept.body.minimumTermDate, '2026-06-30', JSON.stringify(kept.body))
    // A length sent back unchanged beside another change derives nothing: the date a person set stays.
    const same = await h.request('PATCH', `/features/${given.id}`, { minimumTermPeriodLength: 24, description: 'renamed' })
    assert.is(same.body.minimumTermDate, '2026-06-30', JSON.stringify(same.body))

    const peak = await newFeature(h, c, { serviceCharge: 5, startDate: '2026-01-01', featureCount: 2, featureCountCommittedAuto: 'Peak Count' })
    assert.is((await h.request('GET', `/features/${peak}`)).body.featureCountCommitted, 2)
    assert.is((await h.request('PATCH', `/features/${peak}`, { featureCount: 4 })).body.featureCountCommitted, 4)
    assert.is((await h.request('PATCH', `/features/${peak}`, { featureCount: 1 })).body.featureCountCommitted, 4)
    await act(h, `/features/${peak}`, 'changeRecurringCharge', { featureCount: 6, dateFrom: '2026-03-01' })
    assert.is((await h.request('GET', `/features/${peak}`)).body.featureCountCommitted, 6)
    // Nothing was charged when the PATCHes came, so they took effect from the start date: the count
    // 1 from January, but Peak Count never bills below the committed 4 (contract 17.6); 6 from March.
    await bill(h, '2026-04-01')
    assert.equal(await recurring(h, peak), [20, 20, 30, 30])
  })

  test('a renewal date a run rolled on stays when the renewal length is sent back unchanged', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { serviceCharge: 5, startDate: '2026-01-01', renewalPeriodLength: 1, renewalPeriodLengthType: 'months' })
    await bill(h, '2026-04-01')
    const rolled = (await h.request('GET', `/features/${f}`)).body.renewalDate
    assert.ok(rolled > '2026-02-01', rolled)
    const r = await h.request('PATCH', `/features/${f}`, { renewalPeriodLength: 1, renewalPeriodLengthType: 'months', description: 'x' })
    assert.equal([r.status, r.body.renewalDate, r.body.description], [200, rolled, 'x'])
  })

  test('a billing run writes discounts beside their charges, with VAT, and rolls renewal dates on', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, {
      serviceCharge: 12.5,
      featureCount: 2,
      startDate: '2026-01-31',
      VATRate: 'Standard 20%',
      initialFeatureDiscountScheme: 'First Month Free',
      ongoingFeatureDiscountScheme: '10% First Year',
      ongoingFeatureDiscountSchemeEndDate: '2026-03-30',
      renewalPeriodLength: 1,
      renewalPeriodLengthType: 'months',
    })
    await bill(h, '2026-04-01')
    // 2 × 12.50 = 25.00 a period (from 31 Jan, 28 Feb, 31 Mar): free through 27 Feb, then 10% (2.50)
    // for periods starting by 30 Mar: the one from 28 Feb, not the one from 31 Mar.
    assert.equal(await recurring(h, f), [25, 25, 25])
    assert.equal(await recurring(h, f, 'Recurring Charge Discount'), [-25, -2.5])
    const rows = (await h.request('GET', `/features/${f}/transactions?transactionType=Recurring Charge Discount`)).body as any[]
    assert.equal(rows.map((r) => r.VATAmount), [-5, -0.5])
    const feature = (await h.request('GET', `/features/${f}`)).body
    assert.is(feature.totalValueCharged, 47.5)
    // Created 28 Feb (31 Jan + 1 month), rolled by the run to the first date on or after its cutoff,
    // counted from the start as the periods are (31 Mar, 30 Apr), not from the 28th.
    assert.is(feature.renewalDate, '2026-04-30')
  })

  test('instalments charge the total in equal parts, the last the remainder, then stop', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { totalFeatureValue: 1000, instalments: 3, startDate: '2026-01-15', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-06-01')
    assert.equal(await recurring(h, f), [333.33, 333.33, 333.34])
    const got = (await h.request('GET', `/features/${f}`)).body
    assert.equal([got.totalValueCharged, got.totalValueRemaining], [1000, 0])
  })

  test('a drop and reinstate neither forgives nor repeats instalments: the rest of the cut one comes first, then the others', async ({ h }) => {
    const c = await newCustomer(h)
    const own = await newFeature(h, c, { totalFeatureValue: 300, instalments: 3, startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' })
    // The same plan dropped and reinstated by its parent (a cascade gives it the parent's dates).
    const parent = await newCustomer(h)
    const cascaded = await newFeature(h, parent, { totalFeatureValue: 300, instalments: 3, startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    await act(h, `/features/${own}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-14', dateBillTo: '2026-02-14' })
    await act(h, `/customers/${parent}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-14' })
    await bill(h, '2026-03-01')
    await act(h, `/features/${own}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-10' })
    await act(h, `/customers/${parent}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-10' })
    for (const cutoff of ['2026-03-10', '2026-04-01', '2026-05-01', '2026-06-01']) await bill(h, cutoff)
    for (const f of [own, cascaded]) {
      // February's 100.00 was cut to 14/28 = 50.00 by the drop; Feb 15 – Mar 9 stay uncharged
      // (contract 5.5), and the 50.00 still owed of it is the first thing charged after the reinstate
      // (a short first calendar period charges it whole), then the last instalment in April.
      assert.equal(await ledgerOf(h, f), [
        ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
        ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
        ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -100],
        ['Recurring Charge', '2026-02-01', '2026-02-14', 50],
        ['Recurring Charge', '2026-03-10', '2026-03-31', 50],
        ['Recurring Charge', '2026-04-01', '2026-04-30', 100],
      ])
      const got = (await h.request('GET', `/features/${f}`)).body
      assert.equal([got.totalValueCharged, got.totalValueRemaining], [300, 0])
    }
  })

  test('a change of interval goes on with the instalments still owed: the rest of a cut one first, then the others', async ({ h }) => {
    const c = await newCustomer(h)
    const plan = { totalFeatureValue: 300, instalments: 3, startDate: '2026-01-01', serviceChargeInterval: 'Monthly' }
    const onDue = await newFeature(h, c, plan)
    const midMonth = await newFeature(h, c, plan)
    const quarterly = async (f: string, body: Record<string, unknown> = {}) => {
      const r = await h.request('PATCH', `/features/${f}`, { serviceChargeInterval: 'Quarterly', ...body })
      assert.is(r.status, 200, JSON.stringify(r.body))
    }
    await bill(h, '2026-01-01')
    // From the dueDate, 1 February: January's instalment is paid and the two still owed follow, a quarter each.
    await quarterly(onDue)
    await bill(h, '2026-02-01')
    // From 15 February, inside the month of the second instalment.
    await quarterly(midMonth, { updatedDate: '2026-02-15' })
    for (const cutoff of ['2026-03-01', '2026-05-01', '2026-05-15', '2026-08-01', '2026-08-15', '2026-11-15']) await bill(h, cutoff)
    assert.equal(await ledgerOf(h, onDue), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
      ['Recurring Charge', '2026-02-01', '2026-04-30', 100],
      ['Recurring Charge', '2026-05-01', '2026-07-31', 100],
    ])
    // February's 100.00 is cut to 14/28 = 50.00 by the change; the 50.00 still owed of it is the
    // first quarter's charge from the 15th, then the last instalment.
    assert.equal(await ledgerOf(h, midMonth), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -100],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 50],
      ['Recurring Charge', '2026-02-15', '2026-05-14', 50],
      ['Recurring Charge', '2026-05-15', '2026-08-14', 100],
    ])
    for (const f of [onDue, midMonth]) {
      const got = (await h.request('GET', `/features/${f}`)).body
      assert.equal([got.totalValueCharged, got.totalValueRemaining], [300, 0])
    }
  })

  test('a price set on an instalment feature ends the plan from its date: the instalments charged before stay', async ({ h }) => {
    const c = await newCustomer(h)
    const plan = { totalFeatureValue: 300, instalments: 3, startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' }
    const replaced = await newFeature(h, c, plan)
    const added = await newFeature(h, c, plan)
    const patched = await newFeature(h, c, plan)
    const onDue = await newFeature(h, c, plan)
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    await act(h, `/features/${replaced}`, 'changeRecurringCharge', { serviceCharge: 20, dateFrom: '2026-02-15' })
    await act(h, `/features/${added}`, 'changeRecurringCharge', { serviceCharge: 20, dateFrom: '2026-02-15', chargeChangeMode: 'add' })
    assert.is((await h.request('PATCH', `/features/${patched}`, { serviceCharge: 20, updatedDate: '2026-02-15' })).status, 200)
    await act(h, `/features/${onDue}`, 'changeRecurringCharge', { serviceCharge: 20 })
    assert.is((await h.request('GET', `/features/${onDue}`)).body.dueDate, '2026-03-01')
    for (const cutoff of ['2026-03-01', '2026-04-01']) await bill(h, cutoff)
    // January's instalment and February's up to the 14th (14/28 of it) stay; 20.00 a month from the 15th.
    for (const f of [replaced, patched]) {
      assert.equal(await ledgerOf(h, f), [
        ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
        ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
        ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -100],
        ['Recurring Charge', '2026-02-01', '2026-02-14', 50],
        ['Recurring Charge', '2026-02-15', '2026-02-28', 10],
        ['Recurring Charge', '2026-03-01', '2026-03-31', 20],
        ['Recurring Charge', '2026-04-01', '2026-04-30', 20],
      ])
      const got = (await h.request('GET', `/features/${f}`)).body
      assert.equal([got.totalValueCharged, got.totalValueRemaining], [200, 100])
    }
    // `add` leaves February's instalment to the credit note raised outside the platform (contract 9.4).
    assert.equal(await ledgerOf(h, added), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
      ['Recurring Charge', '2026-02-15', '2026-02-28', 10],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 20],
      ['Recurring Charge', '2026-04-01', '2026-04-30', 20],
    ])
    assert.equal(await recurring(h, onDue), [100, 100, 20, 20])
  })

  test('an add on an instalment feature charges again, from its date, what the plan owes from then', async ({ h }) => {
    const c = await newCustomer(h)
    const plan = { totalFeatureValue: 300, instalments: 3, startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly' }
    const mid = await newFeature(h, c, plan)
    const relaid = await newFeature(h, c, plan)
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    await act(h, `/features/${mid}`, 'changeRecurringCharge', { chargeChangeMode: 'add', dateFrom: '2026-02-15' })
    // From 15 February the periods are quarters; the add on that day charges them again.
    assert.is((await h.request('PATCH', `/features/${relaid}`, { serviceChargeInterval: 'Quarterly', updatedDate: '2026-02-15' })).status, 200)
    await act(h, `/features/${relaid}`, 'changeRecurringCharge', { chargeChangeMode: 'add', dateFrom: '2026-02-15' })
    for (const cutoff of ['2026-03-01', '2026-04-01', '2026-05-01', '2026-05-15', '2026-06-01', '2026-08-15']) await bill(h, cutoff)
    // The old series keeps February whole (the credit note raised outside takes back its 15th–28th);
    // the new one charges what the plan owes from the 15th: 14/28 of February's instalment, then March's.
    assert.equal(await ledgerOf(h, mid), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
      ['Recurring Charge', '2026-02-15', '2026-02-28', 50],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 100],
    ])
    // totalValueCharged follows the ledger, which does not hold the credit note (contract 9.3).
    const got = (await h.request('GET', `/features/${mid}`)).body
    assert.equal([got.totalValueCharged, got.totalValueRemaining], [350, -50])
    // The old series ends with the monthly stretch on the 14th: its quarter from the 15th, the
    // rest of February's instalment, is the new series' alone, written once however often billed.
    assert.equal(await ledgerOf(h, relaid), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 100],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 100],
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -100],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 50],
      ['Recurring Charge', '2026-02-15', '2026-05-14', 50],
      ['Recurring Charge', '2026-05-15', '2026-08-14', 100],
    ])
  })

  test('the annual increase job raises due charges once, compounding past years, and history shows it', async ({ h }) => {
    h.clock.set('2026-01-15T10:00:00.000Z')
    const c = await newCustomer(h, { annualIncreaseReferenceDate: '2026-04-01', annualIncreaseProfile: 'Fixed 5%' })
    const inherits = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01' })
    const own = await newFeature(h, c, { serviceCharge: 10, startDate: '2024-01-01', annualIncreaseReferenceDate: '2025-04-01' })
    const none = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', annualIncreaseProfile: 'No Increase' })
    await bill(h, '2026-03-01')
    await act(h, `/features/${inherits}`, 'suspend', { status: 'Suspended', dateSuspend: '2026-03-10' })

    h.clock.set('2026-04-02T00:20:00.000Z')
    // Two workers at once, then the job again: each date is applied once.
    const ctx = h.platform.context
    const [a, b] = await Promise.all([applyAnnualIncreases(ctx), applyAnnualIncreases(ctx)])
    assert.is(a + b, 2)
    assert.is(await applyAnnualIncreases(ctx), 0)
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('annual-increases')
    await scheduler.stop()

    const get = async (id: string) => (await h.request('GET', `/features/${id}`)).body
    // 10.00 × 1.05 on 1 Apr 2025, × 1.05 again on 1 Apr 2026: 10.50, then 11.025.
    assert.equal([(await get(own)).serviceCharge, (await get(own)).annualIncreaseReferenceDate], [11.025, '2027-04-01'])
    assert.equal([(await get(inherits)).serviceCharge, (await get(inherits)).annualIncreaseReferenceDate], [10.5, '2027-04-01'])
    assert.equal([(await get(none)).serviceCharge, (await get(none)).annualIncreaseReferenceDate], [10, null])
    const increasesOf = async (id: string) => ((await h.request('GET', `/features/${id}/history`)).body as any[]).filter((e) => e.action === 'annualIncrease')
    assert.equal((await increasesOf(inherits)).map((e) => e.changes.serviceCharge), [[10, 10.5]])
    // Each yearly date is an entry of its own; the last moves the reference date on.
    const compounding = await increasesOf(own)
    assert.equal(compounding.map((e) => e.changes.serviceCharge), [[10, 10.5], [10.5, 11.025]])
    assert.equal(compounding.map((e) => e.changes.annualIncreaseReferenceDate ?? null), [null, ['2025-04-01', '2027-04-01']])
    const events = (await h.request('GET', '/events?limit=1000')).body as any[]
    assert.is(events.filter((e) => e.type === 'feature.annual_increase_applied').length, 3)

    // Suspended through April: unsuspended in May, the run back-fills April at the new price.
    await act(h, `/features/${inherits}`, 'unsuspend', { status: 'Active', dateUnsuspend: '2026-05-05' })
    await bill(h, '2026-06-01')
    assert.equal(await recurring(h, inherits), [10, 10, 10, 10.5, 10.5, 10.5])
  })

  test('term lengths are whole numbers from 1 giving dates to 9999-12-31 (400101 naming the field); a refused one stores nothing', async ({ h }) => {
    const c = await newCustomer(h)
    const lengths = ['minimumTermPeriodLength', 'committedTermPeriodLength', 'renewalPeriodLength']
    const refused = (body: Record<string, unknown>, field: string | RegExp, r: { status: number; body: Record<string, unknown> }) => {
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(body))
      assert.match(String(r.body.error), field, JSON.stringify(body))
    }
    for (const field of lengths) {
      for (const body of [{ [field]: 0 }, { [field]: -3 }, { [field]: 1.5 }, { [field]: 100000, [`${field}Type`]: 'years' }, { [field]: 2147483647, [`${field}Type`]: 'days' }]) {
        refused(body, field, await h.request('POST', `/customers/${c}/features`, { serviceCharge: 10, startDate: '2026-01-01', ...body }))
      }
    }
    for (const body of [{ noticePeriodLength: -1 }, { noticePeriodLength: 2.5 }]) {
      refused(body, 'noticePeriodLength', await h.request('POST', `/customers/${c}/features`, { serviceCharge: 10, startDate: '2026-01-01', ...body }))
    }
    assert.is((await h.request('GET', `/customers/${c}/features`)).body.length, 0)

    // The last day that fits is accepted: 9999-12-31 is the 1st of January 2026 plus this many days, less one.
    const edge = await newFeature(h, c, { startDate: '2026-01-01', minimumTermPeriodLength: 2912443, minimumTermPeriodLengthType: 'days' })
    assert.is((await h.request('GET', `/features/${edge}`)).body.minimumTermDate, '9999-12-31')

    const f = await newFeature(h, c, {
      serviceCharge: 10,
      startDate: '2026-01-01',
      minimumTermPeriodLength: 12,
      committedTermPeriodLength: 12,
      renewalPeriodLength: 12,
    })
    const before = (await h.request('GET', `/features/${f}`)).body
    const patches: [Record<string, unknown>, string | RegExp][] = [
      ...lengths.flatMap((field) => [
        [{ [field]: -3 }, field],
        [{ [field]: 1.5 }, field],
        [{ [field]: 0 }, field],
        [{ [field]: 10000, [`${field}Type`]: 'years' }, field],
        [{ [`${field}Type`]: 'weeks', [field]: 2147483647 }, field],
      ] as [Record<string, unknown>, string][]),
      // A later start moves the derived dates past the last date too.
      [{ startDate: '9999-06-01' }, /minimumTermPeriodLength/],
    ]
    for (const [body, field] of patches) refused(body, field, await h.request('PATCH', `/features/${f}`, body))
    assert.equal((await h.request('GET', `/features/${f}`)).body, before)
  })

  test('counts are whole numbers from 0 (400101 naming the field); a bad committed count stored before bills as unset', async ({ h }) => {
    const c = await newCustomer(h)
    for (const body of [{ featureCount: 2.5 }, { featureCount: -3 }, { featureCountCommitted: 3.5 }, { featureCountCommitted: -1 }]) {
      const [field] = Object.keys(body)
      const created = await h.request('POST', `/customers/${c}/features`, { serviceCharge: 10, startDate: '2026-06-01', ...body })
      assert.equal([created.status, created.body.error_code], [400, 400101], JSON.stringify(body))
      assert.match(created.body.error, field)
    }
    const f = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-06-01', serviceChargeInterval: 'Calendar Monthly', featureCount: 2 })
    for (const body of [{ featureCount: 2.5 }, { featureCount: -2 }, { featureCountCommitted: 3.5 }]) {
      const patched = await h.request('PATCH', `/features/${f}`, body)
      assert.equal([patched.status, patched.body.error_code], [400, 400101], JSON.stringify(body))
      assert.match(patched.body.error, Object.keys(body)[0])
    }
    // As a feature created before the field was checked holds it: the run bills it and everyone else.
    await h.platform.context.store.repository('features').update(f, { featureCountCommitted: 3.5 })
    const other = await newCustomer(h)
    const plain = await newFeature(h, other, { serviceCharge: 7, startDate: '2026-06-01', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-06-30')
    assert.equal(await recurring(h, f), [20])
    assert.equal(await recurring(h, plain), [7])
  })

  test.run()
}
