import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing engine worked examples [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('every interval kind, first-period pro-rating on calendar intervals, connection charge × count', async ({ h }) => {
    const c = await newCustomer(h)
    const calMonthly = await newFeature(h, c, { startDate: '2026-01-10', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 25, featureCount: 2 })
    const monthly = await newFeature(h, c, { startDate: '2026-01-15', serviceCharge: '10.00', serviceChargeInterval: 'Monthly' })
    const calQuarterly = await newFeature(h, c, { startDate: '2026-02-15', serviceCharge: '90.00', serviceChargeInterval: 'Calendar Quarterly' })
    const quarterly = await newFeature(h, c, { startDate: '2026-02-15', serviceCharge: '90.00', serviceChargeInterval: 'Quarterly' })
    const calAnnual = await newFeature(h, c, { startDate: '2026-07-01', serviceCharge: '365.00', serviceChargeInterval: 'Calendar Annually' })
    const annual = await newFeature(h, c, { startDate: '2026-02-01', serviceCharge: '120.00', serviceChargeInterval: 'Annually' })
    await bill(h, '2026-02-28')
    // Calendar Monthly: Jan 10–31 is 22 of 31 days: 31.00 × 22/31 = 22.00, × 2 = 44.00; Feb full: 31.00 × 2 = 62.00;
    // the connection charge 25.00 × 2 = 50.00 on the start date.
    assert.equal(await ledgerOf(h, calMonthly), [
      ['Connection Charge', '2026-01-10', '2026-01-10', 50],
      ['Recurring Charge', '2026-01-10', '2026-01-31', 44],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 62],
    ])
    // Monthly from the start date, no pro-rating: Jan 15–Feb 14 and Feb 15–Mar 14, 10.00 each.
    assert.equal(await ledgerOf(h, monthly), [
      ['Recurring Charge', '2026-01-15', '2026-02-14', 10],
      ['Recurring Charge', '2026-02-15', '2026-03-14', 10],
    ])
    // Calendar Quarterly: Q1 is Jan 1–Mar 31, 90 days; Feb 15–Mar 31 is 45 days: 90.00 × 45/90 = 45.00.
    assert.equal(await ledgerOf(h, calQuarterly), [['Recurring Charge', '2026-02-15', '2026-03-31', 45]])
    // Quarterly from the start date: Feb 15–May 14 in full.
    assert.equal(await ledgerOf(h, quarterly), [['Recurring Charge', '2026-02-15', '2026-05-14', 90]])
    // Calendar Annually starting Jul 1: nothing starts on or before Feb 28.
    assert.equal(await ledgerOf(h, calAnnual), [])
    assert.equal(await ledgerOf(h, annual), [['Recurring Charge', '2026-02-01', '2027-01-31', 120]])
    const f = (await h.request('GET', `/features/${monthly}`)).body
    assert.is(f.dueDate, '2026-03-15', 'the first day not yet charged')
    assert.is(f.totalValueCharged, 20)
  })

  test('a connection charge invoiced stays the one charge when the start date moves; one not invoiced moves with it', async ({ h }) => {
    const c = await newCustomer(h)
    const invoiced = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 50 })
    // A customer whose low invoices are carried forward: its rows stay unapproved.
    const carried = await newCustomer(h, { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 1000, lowInvoiceAction: 'Carry Forward' })
    const pending = await newFeature(h, carried, { startDate: '2026-01-01', connectionCharge: 30 })
    await bill(h, '2026-01-01')
    for (const [id, startDate] of [[invoiced, '2026-01-05'], [pending, '2026-01-04']] as const) {
      const r = await h.request('PATCH', `/features/${id}`, { startDate })
      assert.is(r.status, 200, JSON.stringify(r.body))
    }
    await bill(h, '2026-02-01')
    const connections = async (id: string) => (await ledgerOf(h, id)).filter((r) => r[0] === 'Connection Charge')
    assert.equal(await connections(invoiced), [['Connection Charge', '2026-01-01', '2026-01-01', 50]])
    assert.equal(await connections(pending), [['Connection Charge', '2026-01-04', '2026-01-04', 30]])
  })

  test('committed count applies until the committed term date; totals follow the ledger', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, {
      startDate: '2026-01-01',
      serviceCharge: '5.00',
      serviceChargeInterval: 'Calendar Monthly',
      featureCount: 2,
      featureCountCommitted: 5,
      committedTermDate: '2026-02-14',
      totalFeatureValue: 100,
    })
    await bill(h, '2026-03-01')
    // Jan and Feb start on or before Feb 14: 5 × 5.00 = 25.00; Mar starts after: 2 × 5.00 = 10.00.
    assert.equal(await ledgerOf(h, f), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 25],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 25],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 10],
    ])
    const feature = (await h.request('GET', `/features/${f}`)).body
    assert.is(feature.totalValueCharged, 60)
    assert.is(feature.totalValueRemaining, 40)
  })

  test('suspension defers charges and unsuspend back-fills them; non-billable likewise through an ancestor', async ({ h }) => {
    const c = await newCustomer(h)
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 000 0001' })).body.id
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly' })
    const g = (await h.request('POST', `/numbers/${n}/features`, { startDate: '2026-01-01', serviceCharge: '12.00', serviceChargeInterval: 'Calendar Monthly' })).body.id
    await bill(h, '2026-01-31')
    await act(h, `/features/${f}`, 'suspend', { status: 'Suspended', dateSuspend: '2026-02-10' })
    await act(h, `/numbers/${n}`, 'makeNonBillable', { status: 'Non-Billable', dateMakeNonBillable: '2026-02-10' })
    await bill(h, '2026-03-01')
    assert.equal(await ledgerOf(h, f), [['Recurring Charge', '2026-01-01', '2026-01-31', 30]], 'suspended on the cutoff: nothing new')
    assert.equal(await ledgerOf(h, g), [['Recurring Charge', '2026-01-01', '2026-01-31', 12]], 'its number is non-billable')
    await act(h, `/features/${f}`, 'unsuspend', { status: 'Active', dateUnsuspend: '2026-03-05' })
    await act(h, `/numbers/${n}`, 'makeBillable', { status: 'Active', dateMakeBillable: '2026-03-05' })
    await bill(h, '2026-03-31')
    // Feb and Mar both became due meanwhile: back-filled, 30.00 each.
    assert.equal((await ledgerOf(h, f)).map((r) => r[1]), ['2026-01-01', '2026-02-01', '2026-03-01'])
    assert.equal((await ledgerOf(h, g)).map((r) => r[3]), [12, 12, 12])
  })

  test('a connection charge waits while its feature, number or customer is non-billable (runs, review runs and previews alike) and is charged by the first run after makeBillable; a suspended one is charged', async ({ h }) => {
    const cases: { c: string; f: string; target: string }[] = []
    for (const [i, level] of ['features', 'numbers', 'customers'].entries()) {
      const c = await newCustomer(h)
      const n = (await h.request('POST', `/customers/${c}/numbers`, { number: `0161 000 010${i}` })).body.id
      const f = (await h.request('POST', `/numbers/${n}/features`, { startDate: '2026-09-10', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 50 })).body.id
      const target = level === 'features' ? `/features/${f}` : level === 'numbers' ? `/numbers/${n}` : `/customers/${c}`
      await act(h, target, 'makeNonBillable', { status: 'Non-Billable', dateMakeNonBillable: '2026-09-01' })
      cases.push({ c, f, target })
    }
    const suspendedOwner = await newCustomer(h)
    const suspended = await newFeature(h, suspendedOwner, { startDate: '2026-09-10', connectionCharge: 20 })
    await act(h, `/features/${suspended}`, 'suspend', { status: 'Suspended', dateSuspend: '2026-09-01' })
    for (const { c, target } of cases) {
      const shown = (await h.request('GET', `/customers/${c}/invoicePreview?cutoffDate=2026-09-30`)).body
      assert.is(shown.invoice, null, `${target}: the preview raises nothing`)
    }
    const review = await h.request('POST', '/billingRuns', { name: 'review 2026-09-30', cutoffDate: '2026-09-30', invoiceDate: '2026-09-30', status: 'Requested', review: true })
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    assert.is((await h.request('GET', `/billingRuns/${review.body.id}`)).body.status, 'Review')
    for (const { f, target } of cases) assert.equal(await ledgerOf(h, f), [], `${target}: the review run charges nothing`)
    assert.is((await h.request('PATCH', `/billingRuns/${review.body.id}`, { status: 'Discarded' })).status, 200)
    await bill(h, '2026-09-30')
    for (const { c, f, target } of cases) {
      assert.equal(await ledgerOf(h, f), [], `${target}: the run charges nothing`)
      assert.equal((await h.request('GET', `/customers/${c}/invoices`)).body, [], target)
    }
    assert.equal(await ledgerOf(h, suspended), [['Connection Charge', '2026-09-10', '2026-09-10', 20]], 'suspension does not defer it')
    for (const { target } of cases) await act(h, target, 'makeBillable', { status: 'Active', dateMakeBillable: '2026-10-05' })
    await bill(h, '2026-10-31')
    for (const { c, f, target } of cases) {
      assert.equal((await ledgerOf(h, f)).filter((r) => r[0] === 'Connection Charge'), [['Connection Charge', '2026-09-10', '2026-09-10', 50]], `${target}: back-filled`)
      const [invoice, ...more] = (await h.request('GET', `/customers/${c}/invoices`)).body
      assert.equal([invoice?.netAmount, more.length], [50 + 21 + 30, 0], `${target}: Sep 10–30 and October with it`)
    }
  })

  test('drop with a notice period: charged through the bill-to date, pro-rated, nothing after', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, {
      startDate: '2026-01-01',
      serviceCharge: '30.00',
      serviceChargeInterval: 'Calendar Monthly',
      noticePeriodLength: 30,
      noticePeriodLengthType: 'days',
    })
    const dropped = await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-10' })
    // bill-to: 2026-03-10 + 30 days − 1 day = 2026-04-08
    assert.is(dropped.billToDate, '2026-04-08')
    await bill(h, '2026-05-31')
    // Apr 1–8 is 8 of 30 days: 30.00 × 8/30 = 8.00; no May.
    assert.equal(await ledgerOf(h, f), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 30],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 30],
      ['Recurring Charge', '2026-03-01', '2026-03-31', 30],
      ['Recurring Charge', '2026-04-01', '2026-04-08', 8],
    ])
  })

  test('a drop after approval refunds the charge past the bill-to date; a reinstate charges again from its date, not the days between', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-03-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-03-31') // March approved on the invoice
    const g = await newFeature(h, c, { startDate: '2026-03-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    const before = await h.request('GET', `/features/${g}`)
    assert.is(before.body.totalValueCharged, 0)
    await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-15', dateBillTo: '2026-03-15' })
    // March should be 31.00 × 15/31 = 15.00. The approved 31.00 stays; it is refunded in full and
    // Mar 1–15 charged again at 15.00: net 31.00 − 31.00 + 15.00 = 15.00.
    assert.equal(await ledgerOf(h, f), [
      ['Recurring Charge', '2026-03-01', '2026-03-31', 31],
      ['Recurring Charge Refund', '2026-03-01', '2026-03-31', -31],
      ['Recurring Charge', '2026-03-01', '2026-03-15', 15],
    ])
    const dropped = await ledgerOf(h, f)
    const back = await act(h, `/features/${f}`, 'reinstate', { status: 'Active', dateReinstate: '2026-03-20' })
    assert.is(back.billToDate, null)
    // Charged through the bill-to date and not after (contract 5.5), and a reinstate back-fills
    // nothing (only unsuspend and makeBillable do, 5.4): the refund stays, Mar 16–19 stay uncharged.
    assert.equal(await ledgerOf(h, f), dropped)
    // The next run charges from the reinstate on, pro-rated as a feature starting that day:
    // Mar 20–31 = 31.00 × 12/31 = 12.00.
    await bill(h, '2026-03-31')
    assert.equal(await ledgerOf(h, f), [...dropped, ['Recurring Charge', '2026-03-20', '2026-03-31', 12]])
  })

  test('a feature dropped with a bill-to date before its start: its invoiced connection charge is refunded with its recurring charge', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-04-10', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 50 })
    await bill(h, '2026-04-30')
    await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-04-09', dateBillTo: '2026-04-09' })
    // Nothing was owed: not one day is charged, so the one-off charge of the start date goes back too (5.5).
    const rows = await ledgerOf(h, f)
    assert.equal(rows.filter((r) => r[1] === '2026-04-10' && r[2] === '2026-04-10'), [
      ['Connection Charge', '2026-04-10', '2026-04-10', 50],
      ['Recurring Charge Refund', '2026-04-10', '2026-04-10', -50],
    ])
    assert.is((await h.request('GET', `/features/${f}`)).body.totalValueCharged, 0)
    await bill(h, '2026-05-31')
    assert.equal(await ledgerOf(h, f), rows, 'a run after writes nothing more')
    // Reinstated, it is owed again, its connection charge with its recurring charges.
    await act(h, `/features/${f}`, 'reinstate', { status: 'Active', dateReinstate: '2026-04-10' })
    await bill(h, '2026-05-31')
    const again = (await ledgerOf(h, f)).slice(rows.length)
    assert.equal(again.filter((r) => r[0] === 'Connection Charge'), [['Connection Charge', '2026-04-10', '2026-04-10', 50]])
    await bill(h, '2026-05-31')
    assert.equal((await ledgerOf(h, f)).length, rows.length + again.length, 'once however often the run is repeated')
  })

  test('a second run with the same cutoff writes nothing and raises no invoice; balances follow', async ({ h }) => {
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    const f = await newFeature(h, c, { startDate: '2026-04-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    const first = await bill(h, '2026-04-30')
    const ledger = await ledgerOf(h, f)
    const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body
    assert.is(invoices.length, 1)
    // 10.00 net + 20% VAT 2.00 = 12.00
    assert.equal([invoices[0].netAmount, invoices[0].VATAmount, invoices[0].totalAmount], [10, 2, 12])
    assert.is((await h.request('GET', `/customers/${c}`)).body.balance, 12)
    const again = await bill(h, '2026-04-30')
    assert.equal(await ledgerOf(h, f), ledger)
    assert.is((await h.request('GET', `/customers/${c}/invoices`)).body.length, 1)
    assert.ok(first.invoiceCount >= 1)
    void again
    const tx = (await h.request('GET', `/customers/${c}/transactions?approved=true`)).body
    assert.ok(tx.every((t: any) => t.approved && t.invoiceID === invoices[0].id))
    assert.equal((await h.request('GET', `/customers/${c}/transactions?approved=false`)).body, [])
  })

  test('a charge not yet invoiced takes the VAT rate in force when the feature\'s or customer\'s rate changes: its name and its VAT', async ({ h }) => {
    // Quarterly: invoiced on the first run, then not due for three months, so October's charges wait unapproved.
    const c = await newCustomer(h, { VATRate: 'Standard 20%', billingCycle: 'Quarterly' })
    const own = await newFeature(h, c, { startDate: '2026-09-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly', VATRate: 'Standard 20%' })
    const inherited = await newFeature(h, c, { startDate: '2026-09-01', serviceCharge: '20.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-09-30')
    assert.is((await h.request('GET', `/customers/${c}/invoices`)).body.length, 1)
    await bill(h, '2026-10-31')
    const vatOf = async (f: string) => ((await h.request('GET', `/features/${f}/transactions?limit=1000`)).body as any[]).map((t) => [t.dateFrom, t.approved, t.VATRate, t.amount, t.VATAmount])
    assert.equal(await vatOf(own), [['2026-09-01', true, 'Standard 20%', 10, 2], ['2026-10-01', false, 'Standard 20%', 10, 2]])
    assert.is((await h.request('PATCH', `/features/${own}`, { VATRate: 'Reduced 5%' })).status, 200)
    assert.is((await h.request('PATCH', `/customers/${c}`, { VATRate: 'Zero Rated' })).status, 200)
    await bill(h, '2026-11-30')
    // The approved September rows keep the rate they were invoiced at; October's, pending, take the rate now.
    assert.equal(await vatOf(own), [['2026-09-01', true, 'Standard 20%', 10, 2], ['2026-10-01', false, 'Reduced 5%', 10, 0.5], ['2026-11-01', false, 'Reduced 5%', 10, 0.5]])
    assert.equal(await vatOf(inherited), [['2026-09-01', true, 'Standard 20%', 20, 4], ['2026-10-01', false, 'Zero Rated', 20, 0], ['2026-11-01', false, 'Zero Rated', 20, 0]])
    await bill(h, '2026-12-31')
    const invoices = (await h.request('GET', `/customers/${c}/invoices`)).body as any[]
    assert.equal(invoices.map((i) => [i.netAmount, i.VATAmount]), [[30, 6], [90, 1.5]])
  })

  test('a charge change moves the charges not yet invoiced to the VAT rate in force, as a run does', async ({ h }) => {
    const c = await newCustomer(h, { VATRate: 'Standard 20%', billingCycle: 'Quarterly' })
    const changed = await newFeature(h, c, { startDate: '2026-09-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-09-30')
    await bill(h, '2026-10-31')
    const vatOf = async (f: string) => ((await h.request('GET', `/features/${f}/transactions?limit=1000`)).body as any[]).map((t) => [t.dateFrom, t.transactionType, t.VATRate, t.amount, t.VATAmount])
    assert.is((await h.request('PATCH', `/customers/${c}`, { VATRate: 'Reduced 5%' })).status, 200)
    await act(h, `/features/${changed}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-11-01' })
    // October's amount is unchanged by a change from November: only its rate moves.
    assert.equal(await vatOf(changed), [['2026-09-01', 'Recurring Charge', 'Standard 20%', 10, 2], ['2026-10-01', 'Recurring Charge', 'Reduced 5%', 10, 0.5]])
  })

  test('final bill: features billed through dateFinalBill; invoiced once, not again unless reinstated', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-05-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-05-31')
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-06-10' })
    await bill(h, '2026-06-30')
    // June is 30 days; Jun 1–10 = 31.00 × 10/30 = 10.33
    assert.equal((await ledgerOf(h, f)).at(-1), ['Recurring Charge', '2026-06-01', '2026-06-10', 10.33])
    const count = (await h.request('GET', `/customers/${c}/invoices`)).body.length
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 5 })
    await bill(h, '2026-07-31')
    assert.is((await h.request('GET', `/customers/${c}/invoices`)).body.length, count, 'no invoice after the final one')
  })

  test('non-billable customers are skipped by runs', async ({ h }) => {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2026-08-01', serviceCharge: '9.00', serviceChargeInterval: 'Calendar Monthly' })
    await act(h, `/customers/${c}`, 'makeNonBillable', { status: 'Non-Billable', dateMakeNonBillable: '2026-07-01' })
    await bill(h, '2026-08-31')
    assert.equal((await h.request('GET', `/customers/${c}/invoices`)).body, [])
    assert.equal((await h.request('GET', `/customers/${c}/transactions`)).body, [])
  })

  test.run()
}
