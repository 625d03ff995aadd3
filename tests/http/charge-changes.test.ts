import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 17.5 and 17.6's Peak Count, through the API on every database: the worked examples of
 * the third money audit (issue 48), each amount computed by hand.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`charge changes take effect when they say [${target}]`)
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

  /** A customer with its own runs: each test bills only its own customer's features. */
  const monthly = async (h: Harness, body: Record<string, unknown>) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', serviceChargeInterval: 'Monthly', VATRate: 'Standard 20%', ...body })
    return { c, f }
  }

  test('a PATCH of serviceCharge takes effect from the dueDate: January and February keep 10.00, March is 20.00 (24.00 with VAT)', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-04-15T10:00:00Z')
    const after = await patch(h, f, { serviceCharge: 20 })
    assert.is(after.serviceCharge, 20)
    assert.is(after.lastUpdatedDate, '2026-03-01')
    await bill(h, '2026-03-01')
    assert.equal(await totals(h, c), [12, 12, 24])
    assert.equal(await ledgerOf(h, f), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 10],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 10],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 20],
    ])
  })

  test('a PATCH with updatedDate takes effect from that date: February is refunded and charged 5.00 + 10.00, March 20.00', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-04-15T10:00:00Z')
    const after = await patch(h, f, { serviceCharge: 20, updatedDate: '2026-02-15' })
    assert.equal([after.updatedDate, after.lastUpdatedDate], ['2026-02-15', '2026-02-15'])
    await bill(h, '2026-03-01')
    // Feb 1-14 at 10.00 × 14/28 = 5.00, Feb 15-28 at 20.00 × 14/28 = 10.00, less the 10.00 approved; March 20.00.
    // Net 25.00, VAT 5.00.
    assert.equal(await totals(h, c), [12, 12, 30])
    assert.equal((await ledgerOf(h, f)).slice(2), [
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -10],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 5],
      ['Recurring Charge', '2026-02-15', '2026-02-28', 10],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 20],
    ])
  })

  test('a second PATCH from the same updatedDate corrects the price from that date, not from the dueDate: February re-priced once', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-04-15T10:00:00Z')
    await patch(h, f, { serviceCharge: 20, updatedDate: '2026-02-15' })
    // The price from 15 February should have been 30.00: the same date again, as stored.
    const after = await patch(h, f, { serviceCharge: 30, updatedDate: '2026-02-15' })
    assert.equal([after.serviceCharge, after.updatedDate, after.lastUpdatedDate], [30, '2026-02-15', '2026-02-15'])
    await bill(h, '2026-03-01')
    // Feb 15-28 at 30.00 × 14/28 = 15.00: the unapproved row the first PATCH wrote is re-priced in
    // place, not charged again. Net 5.00 + 15.00 - 10.00 + 30.00 = 40.00, VAT 8.00.
    assert.equal(await totals(h, c), [12, 12, 48])
    assert.equal((await ledgerOf(h, f)).slice(2), [
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -10],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 5],
      ['Recurring Charge', '2026-02-15', '2026-02-28', 15],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 30],
    ])
  })

  test('a correction from the same updatedDate after its charges were approved refunds them and charges the period once at the new price', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-02-20T10:00:00Z')
    await patch(h, f, { serviceCharge: 20, updatedDate: '2026-02-15' })
    await bill(h, '2026-03-01')
    h.clock.set('2026-03-10T10:00:00Z')
    const after = await patch(h, f, { serviceCharge: 30, updatedDate: '2026-02-15' })
    assert.is(after.lastUpdatedDate, '2026-02-15')
    await bill(h, '2026-04-01')
    // February as approved (5.00 + 10.00) refunded and charged 5.00 + 15.00; March's approved 20.00
    // refunded and charged 30.00; April 30.00. Net 5.00 + 10.00 + 30.00 = 45.00, VAT 9.00.
    assert.equal(await totals(h, c), [12, 12, 30, 54])
    assert.equal((await ledgerOf(h, f)).slice(6), [
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -15],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 5],
      ['Recurring Charge', '2026-02-15', '2026-02-28', 15],
      ['Recurring Charge Refund', '2026-03-01', '2026-03-31', -20],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 30],
      ['Recurring Charge', '2026-04-01', '2026-04-30', 30],
    ])
  })

  test("a GET body sent back with a new price after a drop and reinstate takes effect from the dueDate: the drop's date in updatedDate re-prices nothing invoiced", async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, { serviceCharge: 31, serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-01')
    h.clock.set('2026-01-31T10:00:00Z')
    await act(h, `/features/${f}`, 'drop', { dateDrop: '2026-01-31', status: 'Dropped' })
    await act(h, `/features/${f}`, 'reinstate', { dateReinstate: '2026-01-31', status: 'Active' })
    await bill(h, '2026-02-01')
    await bill(h, '2026-03-01')
    const got = (await h.request('GET', `/features/${f}`)).body
    assert.equal([got.updatedDate, got.lastUpdatedDate, got.dueDate], ['2026-01-31', null, '2026-04-01'])
    const ledger = await ledgerOf(h, f)
    const { id, createdStamp, updatedStamp, dueDate, ...sent } = got
    const after = await patch(h, f, { ...sent, serviceCharge: 62 })
    assert.is(after.lastUpdatedDate, '2026-04-01')
    assert.equal(await ledgerOf(h, f), ledger, 'nothing charged before April changes')
    await bill(h, '2026-04-01')
    assert.equal((await ledgerOf(h, f)).slice(ledger.length), [['Recurring Charge', '2026-04-01', '2026-04-30', 62]])
    assert.ok((await totals(h, c)).length > 0)
  })

  test('a PATCH of featureCount is a change too: periods already charged keep their count', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, { featureCount: 1 })
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-02-20T10:00:00Z')
    await patch(h, f, { featureCount: 3 })
    await bill(h, '2026-03-01')
    assert.equal(await totals(h, c), [12, 12, 36])
    // Unapproved charges before the date are kept too: a second PATCH from the (new) dueDate leaves March alone.
    await patch(h, f, { featureCount: 2 })
    await bill(h, '2026-04-01')
    assert.equal(await totals(h, c), [12, 12, 36, 24])
  })

  test('a PATCH of serviceChargeInterval lays out the periods from its date on; those before keep theirs', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    await bill(h, '2026-02-01')
    h.clock.set('2026-02-20T10:00:00Z')
    const after = await patch(h, f, { serviceChargeInterval: 'Quarterly', serviceCharge: 30 })
    assert.is(after.lastUpdatedDate, '2026-03-01')
    await bill(h, '2026-06-01')
    assert.equal((await ledgerOf(h, f)).map((r) => [r[1], r[2], r[3]]), [
      ['2026-01-01', '2026-01-31', 10],
      ['2026-02-01', '2026-02-28', 10],
      ['2026-03-01', '2026-05-31', 30],
      ['2026-06-01', '2026-08-31', 30],
    ])
    const { f: g } = await monthly(h, {})
    await bill(h, '2026-02-01')
    await patch(h, g, { serviceChargeInterval: 'Calendar Quarterly', serviceCharge: 30, updatedDate: '2026-02-15' })
    await bill(h, '2026-04-01')
    // February cut at the 14th: 10.00 × 14/28 = 5.00 for the 10.00 approved; then the calendar
    // quarter from the 15th, pro-rated 30.00 × 45/90 = 15.00, and April to June whole.
    assert.equal((await ledgerOf(h, g)).map((r) => [r[0], r[1], r[2], r[3]]).slice(-4), [
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -10],
      ['Recurring Charge', '2026-02-01', '2026-02-14', 5],
      ['Recurring Charge', '2026-02-15', '2026-03-31', 15],
      ['Recurring Charge', '2026-04-01', '2026-06-30', 30],
    ])
  })

  test('a read-only updatedDate is still refused elsewhere, and a PATCH without a charge field changes no charge', async ({ h }) => {
    const { c, f } = await monthly(h, {})
    const customer = await h.request('PATCH', `/customers/${c}`, { updatedDate: '2026-02-01' })
    assert.is(customer.body.error_code, 400102)
    await patch(h, f, { description: 'renamed' })
    const got = (await h.request('GET', `/features/${f}`)).body
    assert.is(got.lastUpdatedDate, null)
  })

  test('Peak Count never bills below the committed count: count 2, committed 7 bills 70.00 like Initial Count', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h)
    const peak = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', featureCount: 2, featureCountCommitted: 7, featureCountCommittedAuto: 'Peak Count' })
    const initial = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', featureCount: 2, featureCountCommitted: 7, featureCountCommittedAuto: 'Initial Count' })
    await bill(h, '2026-01-01')
    assert.equal((await ledgerOf(h, peak)).map((r) => r[3]), [70])
    assert.equal((await ledgerOf(h, initial)).map((r) => r[3]), [70])
    // A peak above the committed count raises it from then on, never before.
    await patch(h, peak, { featureCount: 9 })
    await bill(h, '2026-02-01')
    assert.equal((await ledgerOf(h, peak)).map((r) => r[3]), [70, 90])
    assert.is((await h.request('GET', `/features/${peak}`)).body.featureCountCommitted, 9)
  })

  test('Peak Count: a lower count from an earlier date bills the peak in force at each period start, not a later one from that date', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h)
    const body = { serviceCharge: 10, startDate: '2026-01-01', featureCount: 5, featureCountCommittedAuto: 'Peak Count', serviceChargeInterval: 'Calendar Monthly' }
    const patched = await newFeature(h, c, body)
    const changed = await newFeature(h, c, body)
    await bill(h, '2026-03-01')
    h.clock.set('2026-03-05T10:00:00Z')
    for (const f of [patched, changed]) await patch(h, f, { featureCount: 8, updatedDate: '2026-02-15' })
    await bill(h, '2026-03-05')
    // The same correction both ways: 3 from 1 February, as a PATCH and as changeRecurringCharge.
    await patch(h, patched, { featureCount: 3, updatedDate: '2026-02-01' })
    await act(h, `/features/${changed}`, 'changeRecurringCharge', { featureCount: 3, dateFrom: '2026-02-01' })
    await bill(h, '2026-04-01')
    for (const f of [patched, changed]) {
      // January 5 × 10.00 = 50.00. February had 5 by its start (8 came on the 15th): 3 in force, the
      // peak 5 billed, 50.00 for the 65.00 (25.00 + 40.00) charged. From March the peak is 8, reached
      // on 15 February: March keeps its 80.00, April 80.00; the committed count stays 8.
      assert.equal((await ledgerOf(h, f)).slice(8), [
        ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -65],
        ['Recurring Charge', '2026-02-01', '2026-02-28', 50],
        ['Recurring Charge', '2026-04-01', '2026-04-30', 80],
      ])
      const got = (await h.request('GET', `/features/${f}`)).body
      assert.equal([got.featureCount, got.featureCountCommitted], [3, 8])
    }
  })

  test('a feature priced by its fixed fee tariff keeps following the tariff after a PATCH of its count', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Followed rental' })).body.id
    await h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, { description: 'Rental', serviceCharge: 10 })
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Monthly', fixedFeeTariff: 'Followed rental' })
    await bill(h, '2026-01-01')
    h.clock.set('2026-01-20T10:00:00Z')
    const after = await patch(h, f, { featureCount: 2 })
    assert.equal([after.serviceCharge, after.featureCount, after.lastUpdatedDate], [null, 2, '2026-02-01'])
    const raised = await h.request('POST', `/fixedFeeTariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'recurringOnly', increaseEffectiveDate: '2026-03-01' })
    assert.is(raised.status, 200, JSON.stringify(raised.body))
    await bill(h, '2026-03-01')
    // January 1 × 10.00; February 2 × 10.00; March 2 × 11.00 (the tariff's price from 1 March).
    assert.equal((await ledgerOf(h, f)).map((x) => x[3]), [10, 20, 22])
  })

  test('changeRecurringCharge without a serviceCharge keeps a tariff-priced feature on its tariff, in replace and add modes', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const t = (await h.request('POST', '/fixedFeeTariffs', { name: 'Changed rental' })).body.id
    await h.request('POST', `/fixedFeeTariffs/${t}/fixedFeeTariffDetails`, { description: 'Rental', serviceCharge: 10 })
    const c = await newCustomer(h)
    const replaced = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Monthly', fixedFeeTariff: 'Changed rental' })
    const added = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Monthly', fixedFeeTariff: 'Changed rental' })
    await bill(h, '2026-01-01')
    h.clock.set('2026-01-20T10:00:00Z')
    const change = (f: string, body: Record<string, unknown>) => act(h, `/features/${f}`, 'changeRecurringCharge', body)
    assert.equal((await change(replaced, { featureCount: 2, dateFrom: '2026-02-01' })).serviceCharge, null)
    assert.equal((await change(added, { featureCount: 3, dateFrom: '2026-01-01', chargeChangeMode: 'add' })).serviceCharge, null)
    const raised = await h.request('POST', `/fixedFeeTariffs/${t}/applyIncrease`, { increasePercent: 10, increaseScope: 'recurringOnly', increaseEffectiveDate: '2026-03-01' })
    assert.is(raised.status, 200, JSON.stringify(raised.body))
    await bill(h, '2026-03-01')
    // January 1 × 10.00; February 2 × 10.00; March 2 × 11.00 (the tariff's price from 1 March).
    assert.equal((await ledgerOf(h, replaced)).map((x) => x[3]), [10, 20, 22])
    // January 1 × 10.00, and again 3 × 10.00 (add: no refund); February 3 × 10.00; March 3 × 11.00.
    assert.equal((await ledgerOf(h, added)).map((x) => x[3]), [10, 30, 30, 33])
  })

  test('a refund takes back the VAT of what it refunds at its rate; the charge again takes the rate now; a full refund leaves nothing', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const { c, f } = await monthly(h, {})
    await bill(h, '2026-01-01')
    h.clock.set('2026-01-10T10:00:00Z')
    await patch(h, f, { VATRate: 'Zero Rated' })
    await patch(h, f, { serviceCharge: 15, updatedDate: '2026-01-01' })
    const rows = async () => ((await h.request('GET', `/features/${f}/transactions?limit=1000`)).body as any[]).map((t) => [t.transactionType, t.amount, t.VATRate, t.VATAmount])
    assert.equal(await rows(), [
      ['Recurring Charge', 10, 'Standard 20%', 2],
      ['Recurring Charge Refund', -10, 'Standard 20%', -2],
      ['Recurring Charge', 15, 'Zero Rated', 0],
    ])
    const dropped = await h.request('POST', `/features/${f}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-01', dateBillTo: '2025-12-31' })
    assert.is(dropped.status, 200, JSON.stringify(dropped.body))
    const all = await rows()
    assert.equal([all.reduce((t, r) => t + r[1], 0), all.reduce((t, r) => t + r[3], 0)], [0, 0])
    assert.is((await h.request('GET', `/customers/${c}`)).body.balance, 0)
  })
  test.run()
}
