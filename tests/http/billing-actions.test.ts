import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing actions, runs and manual transactions [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const monthly = (h: Harness, c: string) =>
    newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly' })

  test('changeRecurringCharge replace against approved charges: refund and charge again at the new rate', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await monthly(h, c)
    await bill(h, '2026-02-01') // Jan and Feb approved, 30.00 each
    const r = await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '40.00', dateFrom: '2026-02-01' })
    assert.is(r.serviceCharge, 40)
    // Feb: approved 30.00 refunded, charged again at 40.00; Jan untouched.
    assert.equal(await ledgerOf(h, f), [
      ['Recurring Charge', '2026-01-01', '2026-01-31', 30],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 30],
      ['Recurring Charge Refund', '2026-02-01', '2026-02-28', -30],
      ['Recurring Charge', '2026-02-01', '2026-02-28', 40],
    ])
    const before = await ledgerOf(h, f)
    await bill(h, '2026-02-01')
    assert.equal(await ledgerOf(h, f), before, 'the next run with the same cutoff writes nothing')
  })

  test('changeRecurringCharge delta: approved charges stay, one adjustment row per period', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await monthly(h, c)
    await bill(h, '2026-02-01')
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '35.50', dateFrom: '2026-01-01', chargeChangeMode: 'delta' })
    // +5.50 on each of Jan and Feb
    const rows = await ledgerOf(h, f)
    assert.equal(rows.filter((r) => r[0] === 'Recurring Charge Adjustment').map((r) => [r[1], r[3]]), [
      ['2026-01-01', 5.5],
      ['2026-02-01', 5.5],
    ])
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '30.00', dateFrom: '2026-02-01', chargeChangeMode: 'delta' })
    // Feb back to 30.00: its adjustment was not yet approved, so it goes rather than being refunded
    const feb = (await ledgerOf(h, f)).filter((r) => r[1] === '2026-02-01')
    assert.is(feb.reduce((s, r) => s + r[3], 0), 30)
    assert.not.ok(feb.some((r) => r[0] === 'Recurring Charge Adjustment'))
    await bill(h, '2026-02-01') // approves Jan's adjustment
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '30.00', dateFrom: '2026-01-01', chargeChangeMode: 'delta' })
    // Jan's approved +5.50 adjustment is now answered by a −5.50 adjustment refund
    assert.ok((await ledgerOf(h, f)).some((r) => r[0] === 'Recurring Charge Adjustment Refund' && r[1] === '2026-01-01' && r[3] === -5.5))
  })

  test('changeRecurringCharge add: new charges from dateFrom with no refund', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await monthly(h, c)
    await bill(h, '2026-02-01')
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '20.00', dateFrom: '2026-02-01', chargeChangeMode: 'add' })
    const rows = await ledgerOf(h, f)
    assert.not.ok(rows.some((r) => r[0].includes('Refund')))
    assert.ok(rows.some((r) => r[1] === '2026-02-01' && r[3] === 20))
  })

  test('changeRecurringCharge errors: 400201 for mode and add rules, 400504 for values, 400502 when dropped', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await monthly(h, c)
    const code = async (body: object) => (await h.request('POST', `/features/${f}?action=changeRecurringCharge`, body)).body.error_code
    assert.is(await code({ chargeChangeMode: 'swap' }), 400201)
    assert.is(await code({ chargeChangeMode: 'add', serviceCharge: 1 }), 400201, 'add without dateFrom')
    assert.is(await code({ chargeChangeMode: 'add', dateFrom: '2026-01-01' }), 400201, 'add with no recurring charges yet')
    await bill(h, '2026-01-31')
    assert.is(await code({ chargeChangeMode: 'add', dateFrom: '2026-03-01' }), 400201, 'dateFrom after the due date 2026-02-01')
    assert.is(await code({ serviceCharge: '1.23456' }), 400504)
    assert.is(await code({ featureCount: -1 }), 400504)
    assert.is(await code({ dateFrom: '2026-02-30' }), 400504)
    assert.is(await code({ colour: 'red' }), 400504)
    await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    assert.is(await code({ serviceCharge: 1 }), 400502)
  })

  test('delta mode needs both adjustment transaction types configured', async ({ h }) => {
    const { defaultPresets } = await import('../../core/presets/presets.js')
    const lists = { ...defaultPresets.lists, transactionTypes: defaultPresets.lists.transactionTypes.filter((t) => !t.startsWith('Recurring Charge Adjustment')) }
    const other = await openHarness(target, { presets: { ...defaultPresets, lists } })
    try {
      const c = await newCustomer(other)
      const f = await monthly(other, c)
      const r = await other.request('POST', `/features/${f}?action=changeRecurringCharge`, { serviceCharge: 1, chargeChangeMode: 'delta' })
      assert.is(r.body.error_code, 400201)
    } finally {
      await other.close()
    }
  })

  test('manual transactions: payments negative without VAT, charges with VAT, balance is amount + VAT', async ({ h }) => {
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    const charge = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: '100.005', description: 'Install' })
    assert.is(charge.status, 201, JSON.stringify(charge.body))
    // 100.005 rounds half-up to 100.01; VAT 20% = 20.002 → 20.00
    assert.equal([charge.body.amount, charge.body.VATAmount, charge.body.VATRate], [100.01, 20, 'Standard 20%'])
    const pay = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: 50 })
    assert.equal([pay.body.amount, pay.body.VATAmount], [-50, 0])
    assert.is((await h.request('GET', `/customers/${c}`)).body.balance, 70.01)
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { amount: 1 })).body.error_code, 400101)
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Gift', amount: 1 })).body.error_code, 400101)
    const other = await newCustomer(h)
    const foreign = await newFeature(h, other, {})
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 1, featureID: foreign })).body.error_code, 400101)
    assert.equal((await h.request('GET', `/transactions?transactionType=Payment&dateFrom=2026-01-05&dateTo=2026-01-05`)).body.map((t: any) => t.id), [pay.body.id])
    assert.is((await h.request('GET', '/transactions?approved=maybe')).body.error_code, 400103)
  })

  test('write-offs: preconditions 400502, parameters 400503/400504, the balance ends at zero', async ({ h }) => {
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 100 }) // 100 + 20 VAT
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: 30 })
    const w = (body: object, action = 'writeOffDebt') => h.request('POST', `/customers/${c}?action=${action}`, body)
    assert.is((await w({})).body.error_code, 400503)
    assert.is((await w({ dateWriteoff: '2026-13-01' })).body.error_code, 400504)
    assert.is((await w({ dateWriteoff: '2026-01-31', vatTreatment: 'none' })).body.error_code, 400504)
    assert.is((await w({ dateWriteoff: '2026-01-31' })).body.error_code, 400502, 'not dropped')
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    assert.is((await w({ dateWriteoff: '2026-01-31' }, 'writeOffCredit')).body.error_code, 400502, 'no credit')
    const r = await w({ dateWriteoff: '2026-01-31' })
    assert.is(r.status, 200, JSON.stringify(r.body))
    assert.is(r.body.balance, 0)
    // The 120.00 debit note (20.00 VAT) is not invoiced yet and 30.00 paid is held for it: 90.00 of it
    // is written off with its VAT share, 90 × 20/120 = 15.00, so the note is −75.00 net, −15.00 VAT (contract 17.6).
    const note = (await h.request('GET', `/customers/${c}/transactions?transactionType=Credit%20Note`)).body[0]
    assert.equal([note.amount, note.VATAmount, note.transactionDate], [-75, -15, '2026-01-31'])
    assert.is((await w({ dateWriteoff: '2026-01-31' })).body.error_code, 400502, 'nothing left')
    const d = await newCustomer(h)
    await h.request('POST', `/customers/${d}/transactions`, { transactionType: 'Payment', amount: 12.34 })
    await act(h, `/customers/${d}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    const credit = await h.request('POST', `/customers/${d}?action=writeOffCredit`, { dateWriteoff: '2026-02-01', vatTreatment: 'vat_exempt' })
    assert.is(credit.body.balance, 0)
  })

  test('billing runs: Pending → Requested → Complete; dates locked (409003); one in progress at a time', async ({ h }) => {
    const pending = await h.request('POST', '/billingRuns', { name: 'Later', cutoffDate: '2026-09-30' })
    assert.is(pending.body.status, 'Pending')
    assert.is((await h.request('POST', '/billingRuns', { status: 'Complete' })).body.error_code, 400101)
    assert.is((await h.request('PATCH', `/billingRuns/${pending.body.id}`, { cutoffDate: '2026-10-31' })).body.cutoffDate, '2026-10-31')
    const requested = await h.request('PATCH', `/billingRuns/${pending.body.id}`, { status: 'Requested' })
    assert.is(requested.body.status, 'Requested')
    assert.is((await h.request('PATCH', `/billingRuns/${pending.body.id}`, { cutoffDate: '2026-11-30' })).body.error_code, 409003)
    assert.is((await h.request('POST', '/billingRuns', { cutoffDate: '2026-09-30', status: 'Requested' })).body.error_code, 409003)
    assert.is((await h.request('DELETE', `/billingRuns/${pending.body.id}`)).body.error_code, 409003)
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const done = (await h.request('GET', `/billingRuns/${pending.body.id}`)).body
    assert.is(done.status, 'Complete')
    assert.ok(done.commencedDate && done.completedDate)
    const extra = await h.request('POST', '/billingRuns', { name: 'x' })
    assert.is((await h.request('DELETE', `/billingRuns/${extra.body.id}`)).status, 200)
  })

  test.run()
}
