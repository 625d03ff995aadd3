import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Stamp } from '../../core/dates/stamp.js'
import { parseMoney } from '../../core/money/money.js'
import { applyAnnualIncreases } from '../../core/billing/annual-increases.js'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const alertsOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body.creditAlerts as string[]
const post = async (h: Harness, c: string, body: Record<string, unknown>) => {
  const r = await h.request('POST', `/customers/${c}/transactions`, body)
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}
const listed = async (h: Harness, query: string) => ((await h.request('GET', `/customers?limit=1000&${query}`)).body as any[]).map((c) => c.id)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`credit control: credit alerts [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('creditLimit follows the balance through transactions and payments; the list filter finds it', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { creditLimit: 100 })
    const quiet = await newCustomer(h)
    assert.equal(await alertsOf(h, c), [])
    assert.equal(await alertsOf(h, quiet), [])
    await post(h, c, { transactionType: 'Debit Note', amount: 100, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), [], 'at the limit is not above it')
    await post(h, c, { transactionType: 'Debit Note', amount: 0.01, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), ['creditLimit'])
    const announced = async () => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'customer.credit_alert' && e.data.id === c)
    assert.equal((await announced()).map((e) => [e.data.creditAlerts, e.data.balance]), [[['creditLimit'], 100.01]], 'the alert that appears is announced with the customer')
    await post(h, c, { transactionType: 'Debit Note', amount: 1, transactionDate: '2026-01-05' })
    assert.is((await announced()).length, 1, 'an alert still standing is not announced again')
    assert.ok((await listed(h, 'creditAlert=creditLimit')).includes(c))
    assert.ok((await listed(h, 'creditAlert=any')).includes(c))
    assert.not.ok((await listed(h, 'creditAlert=any')).includes(quiet))
    assert.not.ok((await listed(h, 'creditAlert=creditLimitCalls')).includes(c), 'a name is not a prefix of another')
    assert.is((await h.request('GET', '/customers?creditAlert=tooMuch')).body.error_code, 400103)
    await post(h, c, { transactionType: 'Payment', amount: 51, transactionDate: '2026-01-06' })
    assert.equal(await alertsOf(h, c), [])
    const r = await h.request('PATCH', `/customers/${c}`, { creditLimit: 10 })
    assert.equal(r.body.creditAlerts, ['creditLimit'], 'a lower limit takes effect at once')
    assert.is((await announced()).length, 2, 'an alert that comes back is announced again')
    assert.is((await h.request('PATCH', `/customers/${c}`, { creditAlerts: ['creditLimitCalls'] })).body.error_code, 400102, 'read-only')
  })

  test('creditLimitCalls and a number creditLimit follow unbilled calls; a run bills them', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { creditLimitCalls: 5 })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0001', creditLimit: 3 })).body.id
    await post(h, c, { transactionType: 'Call Charges', amount: 4, numberID: n, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), ['numberCreditLimit'])
    await post(h, c, { transactionType: 'Call Charges', amount: 2, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), ['creditLimitCalls', 'numberCreditLimit'])
    await bill(h, '2026-01-31')
    assert.equal(await alertsOf(h, c), [], 'invoiced calls are billed')
    const r = await h.request('PATCH', `/numbers/${n}`, { creditLimit: -1 })
    assert.is(r.status, 200)
    assert.equal(await alertsOf(h, c), ['numberCreditLimit'], 'a number limit changed is measured at once')
  })

  test('call charges on a draft (contract 16.1) stay unbilled until its run is approved', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { creditLimitCalls: 5 })
    await post(h, c, { transactionType: 'Call Charges', amount: 6, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), ['creditLimitCalls'])
    const poll = async () => {
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('billing-poll')
      await scheduler.stop()
    }
    const run = (await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', status: 'Requested', review: true })).body
    await poll()
    assert.is((await h.request('GET', `/billingRuns/${run.id}`)).body.status, 'Review')
    assert.equal(await alertsOf(h, c), ['creditLimitCalls'], 'drafted, not billed')
    assert.equal((await h.request('PATCH', `/customers/${c}`, { creditLimitCalls: 5.5 })).body.creditAlerts, ['creditLimitCalls'], 'and measured so again')
    assert.is((await h.request('PATCH', `/billingRuns/${run.id}`, { status: 'Approved' })).status, 200)
    await poll()
    assert.equal(await alertsOf(h, c), [], 'billed once approved')
  })

  test('a review run\'s drafting and its discarding (contract 16.1) keep creditLimit current', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    // Its calls' 6.00 becomes a Call Charges row as the run drafts: in the balance until discarded.
    const calls = await newCustomer(h, { creditLimit: 5 })
    const n = (await h.request('POST', `/customers/${calls}/numbers`, { number: '0161 777 0009' })).body.id
    await h.platform.context.store.repository('calls').insert({ customerID: calls, numberID: n, startTime: '2026-01-10T10:00:00.000Z' as Stamp, cost: parseMoney('6'), rated: true, deleted: false, fingerprint: 'review-discarded' })
    // Nothing to invoice: its draft carries a Minimum Charge of 12.00, deleted with the draft.
    const minimum = await newCustomer(h, { creditLimit: 10, emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 12 })
    assert.equal([await alertsOf(h, calls), await alertsOf(h, minimum)], [[], []])
    const announced = async () => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'customer.credit_alert' && e.data.id === minimum).length
    const run = (await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', status: 'Requested', review: true })).body
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const status = (await h.request('GET', `/billingRuns/${run.id}`)).body.status
    const drafted = [await alertsOf(h, calls), await alertsOf(h, minimum), await announced()]
    // Discarded before anything is asserted: a run left in Review would hold up the tests after this one.
    const discarded = (await h.request('PATCH', `/billingRuns/${run.id}`, { status: 'Discarded' })).status
    assert.equal([status, discarded], ['Review', 200])
    assert.equal(drafted, [['creditLimit'], ['creditLimit'], 1], 'drafted rows are in the balance; the alert they raise is announced')
    assert.equal([await alertsOf(h, calls), await alertsOf(h, minimum)], [[], []], 'the rows the run derived are gone with its drafts')
  })

  test('a customer whose only limit is a number\'s is measured by the run that bills its calls', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h)
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0002', creditLimit: 3 })).body.id
    await post(h, c, { transactionType: 'Call Charges', amount: 4, numberID: n, transactionDate: '2026-01-05' })
    assert.equal(await alertsOf(h, c), ['numberCreditLimit'])
    await bill(h, '2026-01-31')
    assert.equal(await alertsOf(h, c), [], 'its invoiced calls are no longer unbilled')
  })

  test('a run whose rounding to pence takes a number over its limit raises the alert', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    // Carried forward, the calls' charge stays unbilled: 1.005 of calls is a 1.01 charge, above 1.0051.
    const c = await newCustomer(h, { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 20, lowInvoiceAction: 'Carry Forward' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0003', creditLimit: 1.0051 })).body.id
    const calls = h.platform.context.store.repository('calls')
    await calls.insert({ customerID: c, numberID: n, startTime: '2026-01-10T10:00:00.000Z' as Stamp, cost: parseMoney('1.005'), rated: true, deleted: false, fingerprint: 'rounds-up' })
    assert.equal(await alertsOf(h, c), [], '1.005 is not above 1.0051')
    await bill(h, '2026-01-31')
    const charge = ((await h.request('GET', `/customers/${c}/transactions`)).body as any[]).find((t) => t.transactionType === 'Call Charges')
    assert.equal([charge.amount, charge.approved], [1.01, false])
    assert.equal(await alertsOf(h, c), ['numberCreditLimit'])
  })

  test('creditLimitUnsent counts invoices not sent yet (contract 14.2); creditLimitOverdue the overdue amount', async ({ h }) => {
    h.clock.set('2026-02-01T09:00:00Z')
    const c = await newCustomer(h, { creditLimitUnsent: 20, creditLimitOverdue: 10, paymentTerms: 5, email: 'unsent@example.com' })
    await post(h, c, { transactionType: 'Debit Note', amount: 25, transactionDate: '2026-01-31' })
    await bill(h, '2026-01-31')
    assert.equal(await alertsOf(h, c), ['creditLimitUnsent'])
    h.clock.set('2026-02-09T01:00:00Z')
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('invoice-overdue')
    assert.equal(await alertsOf(h, c), ['creditLimitOverdue', 'creditLimitUnsent'], 'overdue after Feb 5; still not sent')
    await scheduler.runNow('invoice-delivery')
    await scheduler.stop()
    assert.equal(await alertsOf(h, c), ['creditLimitOverdue'], 'sent: no longer unsent')
    await post(h, c, { transactionType: 'Payment', amount: 20, transactionDate: '2026-02-09' })
    assert.equal(await alertsOf(h, c), [], '5.00 overdue is within 10.00')
  })

  test('the new fields are in the OpenAPI document and the presets endpoint', async ({ h }) => {
    const doc = (await h.request('GET', '/openapi.json')).body
    const text = JSON.stringify(doc)
    assert.ok(text.includes('creditAlerts'))
    assert.ok(text.includes('overdueAmount'))
    assert.ok(text.includes('amountOutstanding'))
    assert.ok(text.includes('numberCreditLimit'))
    assert.equal((await h.request('GET', '/presets/customers')).body.creditAlerts, [
      'creditLimit',
      'creditLimitCalls',
      'creditLimitOverdue',
      'creditLimitUnsent',
      'numberCreditLimit',
      'expectedSpend',
      'numberExpectedSpend',
    ])
    assert.equal((await h.request('GET', '/presets/invoices')).body.status, ['Unpaid', 'Paid', 'Overdue', 'Draft'])
  })

  test('expected spend (17.7): a month\'s calls past twice it raise the alert, announced once a month', async ({ h }) => {
    h.clock.set('2026-01-10T09:00:00Z')
    const t = await h.request('POST', '/tariffs', { name: 'Spend', baseRoundSeconds: 60 })
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.50' })).status, 201)
    const c = await newCustomer(h, { expectedSpend: 1 })
    assert.is((await h.request('POST', `/customers/${c}/numbers`, { number: '0161 888 0001', nationalTariff: 'Spend' })).status, 201)
    const byNumber = await newCustomer(h)
    assert.is((await h.request('POST', `/customers/${byNumber}/numbers`, { number: '0161 888 0002', nationalTariff: 'Spend', expectedSpend: 0.2 })).status, 201)
    const upload = async (...rows: string[]) => {
      const body = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n'
      const r = await h.request('POST', '/usageFiles?name=spend.csv', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    const call = (digits: string, at: string, seconds: number) => `${digits},01632960999,${at},${seconds},NAT,national,Gamma`
    const events = async (type: string, id: string) => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === type && e.data.id === id)

    // 61 s is 2 minutes at 0.50: 1.00 a call. Two are 2.00, twice the expected 1.00: not past it.
    await upload(call('01618880001', '2026-01-06T10:00:00Z', 61), call('01618880001', '2026-01-07T10:00:00Z', 61))
    assert.equal(await alertsOf(h, c), [])
    // 30 s more (0.50): 2.50 is past 2.00.
    await upload(call('01618880001', '2026-01-08T10:00:00Z', 30))
    assert.equal(await alertsOf(h, c), ['expectedSpend'])
    assert.equal((await events('customer.spend_alert', c)).map((e) => e.data.creditAlerts), [['expectedSpend']])
    assert.is((await events('customer.credit_alert', c)).length, 0, 'a spend alert is announced as such, not as a credit limit')
    // Crossing again in the same month: the alert comes back, the event does not.
    assert.equal((await h.request('PATCH', `/customers/${c}`, { expectedSpend: 5 })).body.creditAlerts, [])
    assert.equal((await h.request('PATCH', `/customers/${c}`, { expectedSpend: 1 })).body.creditAlerts, ['expectedSpend'])
    assert.is((await events('customer.spend_alert', c)).length, 1, 'once a month')
    // Billed calls still count: the month's call charges are billed and unbilled.
    await bill(h, '2026-01-31')
    assert.equal(await alertsOf(h, c), ['expectedSpend'])

    // February starts from nothing: 0.50 is under 2.00; then 2.50 passes it, announced again.
    h.clock.set('2026-02-03T09:00:00Z')
    await upload(call('01618880001', '2026-02-02T10:00:00Z', 30))
    assert.equal(await alertsOf(h, c), [])
    await upload(call('01618880001', '2026-02-02T11:00:00Z', 61), call('01618880001', '2026-02-02T12:00:00Z', 61))
    assert.equal(await alertsOf(h, c), ['expectedSpend'])
    assert.is((await events('customer.spend_alert', c)).length, 2, 'the next month announces it again')

    // A number's expected spend 0.20: its 0.50 passes 0.40.
    await upload(call('01618880002', '2026-02-02T10:00:00Z', 30))
    assert.equal(await alertsOf(h, byNumber), ['numberExpectedSpend'])
    assert.ok((await listed(h, 'creditAlert=numberExpectedSpend')).includes(byNumber))
    assert.is((await events('customer.spend_alert', byNumber)).length, 1)
  })

  test('charge changes, annual increases and the rebill of a drop keep creditLimit current', async ({ h }) => {
    h.clock.set('2026-02-05T09:00:00Z')
    const c = await newCustomer(h, { VATRate: 'Standard 20%', creditLimit: 100 })
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: 50, serviceChargeInterval: 'Calendar Monthly' })
    const raised = await newCustomer(h, { VATRate: 'Standard 20%', creditLimit: 123, annualIncreaseReferenceDate: '2026-01-01', annualIncreaseProfile: 'Fixed 5%' })
    await newFeature(h, raised, { startDate: '2026-01-01', serviceCharge: 100, serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    assert.equal([await alertsOf(h, c), await alertsOf(h, raised)], [[], []], '60.00 and 120.00 are within their limits')
    const announced = async () => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'customer.credit_alert' && e.data.id === c).length
    // January refunded and charged again at 150.00: 180.00 with VAT.
    assert.is((await h.request('PATCH', `/features/${f}`, { serviceCharge: 150, updatedDate: '2026-01-01' })).status, 200)
    assert.equal(await alertsOf(h, c), ['creditLimit'], 'a PATCH of the charge')
    assert.is(await announced(), 1)
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: 50, dateFrom: '2026-01-01' })
    assert.equal(await alertsOf(h, c), [], 'changeRecurringCharge back to 50.00')
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: 150, dateFrom: '2026-01-01' })
    assert.equal(await alertsOf(h, c), ['creditLimit'])
    assert.is(await announced(), 2)
    await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-15', dateBillTo: '2026-01-15' })
    assert.equal(await alertsOf(h, c), [], 'the drop bills half of January: 72.58 + 14.52 VAT')
    assert.is(await applyAnnualIncreases(h.platform.context), 1)
    assert.equal(await alertsOf(h, raised), ['creditLimit'], 'January at 105.00: 126.00 is over 123.00')
  })

  test('?creditAlert= lists creditLimitOverdue as each customer reads it today, whether or not the overdue job has run', async ({ h }) => {
    h.clock.set('2026-02-01T09:00:00Z')
    try {
      const late = await newCustomer(h, { creditLimitOverdue: 5, paymentTerms: 5 })
      const within = await newCustomer(h, { creditLimitOverdue: 60, paymentTerms: 5 })
      const other = await newCustomer(h, { creditLimit: 10 })
      for (const c of [late, within, other]) await post(h, c, { transactionType: 'Debit Note', amount: 50, transactionDate: '2026-01-31' })
      await bill(h, '2026-01-31')
      const found = async (name: string) => {
        const page = (await h.request('GET', `/customers?limit=1000&creditAlert=${name}`)).body as any[]
        return [late, within, other].filter((c) => page.some((x) => x.id === c && x.creditAlerts.length > 0))
      }
      assert.equal([await found('creditLimitOverdue'), await found('any')], [[], [other]], 'not overdue yet')
      // Overdue after its overdue date, and no job has run: the item shows it, and so do the lists.
      h.clock.set('2026-02-20T09:00:00Z')
      const item = (await h.request('GET', `/customers/${late}`)).body
      assert.equal([item.overdueAmount, item.creditAlerts], [50, ['creditLimitOverdue']])
      assert.equal([await found('creditLimitOverdue'), await found('any')], [[late], [late, other]], 'no job has run')
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('invoice-overdue')
      await scheduler.stop()
      assert.equal([await found('creditLimitOverdue'), await found('any')], [[late], [late, other]], 'stored by the job')
      // Stored, but read on a day it is not exceeded: neither the item nor the lists show it.
      h.clock.set('2026-02-01T09:00:00Z')
      assert.equal(await alertsOf(h, late), [])
      assert.equal([await found('creditLimitOverdue'), await found('any')], [[], [other]], 'stored, not exceeded today')
      h.clock.set('2026-02-20T09:00:00Z')
      await post(h, late, { transactionType: 'Payment', amount: 46, transactionDate: '2026-02-20' })
      const paid = [await alertsOf(h, late), await found('creditLimitOverdue'), await found('any')]
      assert.equal(paid, [[], [], [other]], 'paid down to 4.00')
    } finally {
      h.clock.set('2026-01-05T09:00:00Z')
    }
  })

  test.run()
}
