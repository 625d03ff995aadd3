import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

// This platform withholds suspend and bar from customers requiring regulator protection; customers that
// act on a limit are Not Protected: the platform may cut them off itself (protected ones: see their test).
const presets = mergePresets({
  lists: { regulatorProtectedActions: ['suspend', 'bar'] },
  dunningProfiles: {
    Standard: { steps: [{ afterDays: 7, action: 'reminder' }] },
    Barring: { steps: [], onCreditLimit: 'bar' },
    Suspending: { steps: [], onCreditLimit: 'suspend' },
  },
})
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const upload = async (h: Harness, ...rows: string[]) => {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: [header, ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, r.text)
}
const call = (digits: string, seconds: number) => `${digits},01632960999,2026-01-14T10:00:00Z,${seconds},NAT,national,Gamma`
const events = async (h: Harness, type: string) => (await h.request('GET', `/events?idAfter=0&limit=1000&type=${type}`)).body as any[]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`credit limits that act: onCreditLimit [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-15T09:00:00Z', presets })
    const t = await ctx.h.request('POST', '/tariffs', { name: 'Limits', baseRoundSeconds: 60 })
    assert.is((await ctx.h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '1.00' })).status, 201)
  })
  test.after(async (ctx) => ctx.h.close())

  test('after a usage import: alert only (the default), bar the numbers, or suspend; each once per passing', async ({ h }) => {
    const number = async (c: string, digits: string, extra: Record<string, unknown> = {}) => {
      const r = await h.request('POST', `/customers/${c}/numbers`, { number: digits, nationalTariff: 'Limits', ...extra })
      assert.is(r.status, 201, r.text)
      return r.body.id as string
    }
    const alertOnly = await newCustomer(h, { creditLimitCalls: 2 })
    await number(alertOnly, '0161 777 0001')
    const barring = await newCustomer(h, { creditLimitCalls: 2, dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected' })
    const [b1, b2] = [await number(barring, '0161 777 0002'), await number(barring, '0161 777 0003')]
    const byNumber = await newCustomer(h, { dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected' })
    const [n1] = [await number(byNumber, '0161 777 0004', { creditLimit: 1 }), await number(byNumber, '0161 777 0005', { creditLimit: 50 })]
    const suspending = await newCustomer(h, { creditLimitCalls: 2, dunningProfile: 'Suspending', regulatorProtectionClass: 'Not Protected' })
    await number(suspending, '0161 777 0006')
    // 3 minutes at 1.00 each: 3.00 of unbilled calls passes every limit of 2.00 (and number 0004's 1.00).
    await upload(h, call('01617770001', 180), call('01617770002', 180), call('01617770004', 180), call('01617770005', 30), call('01617770006', 180))
    const customer = async (c: string) => (await h.request('GET', `/customers/${c}`)).body
    assert.equal((await customer(alertOnly)).creditAlerts, ['creditLimitCalls'])
    assert.is((await customer(alertOnly)).isSuspended, false, 'alert: nothing more')
    const bars = await events(h, 'number.bar_requested')
    assert.equal(bars.map((e) => [e.data.number.id, e.data.reason]).sort(), [[b1, ['creditLimitCalls']], [b2, ['creditLimitCalls']], [n1, ['numberCreditLimit']]].sort(), 'every number of a customer over its own limit; only the number over a number limit')
    const s = await customer(suspending)
    assert.equal([s.isSuspended, s.status, s.statusReason], [true, 'Suspended', 'Credit Limit'])
    assert.equal(((await h.request('GET', `/customers/${suspending}/history`)).body as any[]).filter((e) => e.action === 'suspend').map((e) => e.apiKeyName), ['test-admin'], 'history names the key whose import passed the limit')
    // Still over: a further import acts no more.
    await upload(h, call('01617770002', 60), call('01617770006', 60))
    assert.is((await events(h, 'number.bar_requested')).length, 3)
    assert.is((await events(h, 'customer.suspended')).filter((e) => e.data.id === suspending).length, 1)
    // A billing run invoices the calls (no alert); new calls over the limit pass it again, after the run: acts again.
    await bill(h, '2026-01-31')
    assert.equal((await customer(barring)).creditAlerts, [])
    h.clock.set('2026-02-02T09:00:00Z')
    await upload(h, call('01617770003', 180).replace('2026-01-14', '2026-02-01'))
    assert.equal((await events(h, 'number.bar_requested')).filter((e) => e.data.number.customerID === barring).length, 4)
  })

  test('after a billing run: the balance passing creditLimit suspends a Suspending customer once; an Alert customer only alerts', async ({ h }) => {
    h.clock.set('2026-02-20T09:00:00Z')
    const suspending = await newCustomer(h, { creditLimit: 50, dunningProfile: 'Suspending', regulatorProtectionClass: 'Not Protected' })
    const alertOnly = await newCustomer(h, { creditLimit: 50 })
    for (const c of [suspending, alertOnly]) {
      assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount: '40.00', transactionDate: '2026-02-10' })).status, 201)
    }
    assert.is((await h.request('GET', `/customers/${suspending}`)).body.isSuspended, false, 'within the limit')
    // The run adds no charge of its own here; a recurring charge would: a feature of 30.00 a month takes the balance to 70.00.
    for (const c of [suspending, alertOnly]) {
      assert.is((await h.request('POST', `/customers/${c}/features`, { startDate: '2026-02-01', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly' })).status, 201)
    }
    await bill(h, '2026-02-28')
    const s = (await h.request('GET', `/customers/${suspending}`)).body
    assert.equal([s.creditAlerts, s.isSuspended, s.statusReason], [['creditLimit'], true, 'Credit Limit'])
    const a = (await h.request('GET', `/customers/${alertOnly}`)).body
    assert.equal([a.creditAlerts, a.isSuspended], [['creditLimit'], false])
    await bill(h, '2026-03-31')
    assert.is((await events(h, 'customer.suspended')).filter((e) => e.data.id === suspending).length, 1, 'still over: no second suspension')
  })

  test('a customer requiring regulator protection (blank class, Consumer) is alerted, never barred or suspended: the withholding is announced once', async ({ h }) => {
    h.clock.set('2026-04-05T09:00:00Z')
    const withNumber = async (body: Record<string, unknown>, digits: string) => {
      const c = await newCustomer(h, { creditLimitCalls: 2, ...body })
      const r = await h.request('POST', `/customers/${c}/numbers`, { number: digits, nationalTariff: 'Limits' })
      assert.is(r.status, 201, r.text)
      return [c, r.body.id as string]
    }
    const [barring, barringNumber] = await withNumber({ dunningProfile: 'Barring' }, '0161 777 0011')
    const [suspending] = await withNumber({ dunningProfile: 'Suspending' }, '0161 777 0012')
    const [consumer] = await withNumber({ dunningProfile: 'Suspending', regulatorProtectionClass: 'Consumer' }, '0161 777 0013')
    const april = (digits: string) => call(digits, 180).replace('2026-01-14', '2026-04-02')
    await upload(h, april('01617770011'), april('01617770012'), april('01617770013'))
    const withheld = async (c: string) =>
      (await events(h, 'customer.credit_limit_action_withheld')).filter((e) => e.data.customer.id === c).map((e) => [e.data.action, e.data.reason, e.data.regulatorProtectionClass, e.data.alerts, e.data.numbers.map((n: any) => n.id)])
    for (const c of [barring, suspending, consumer]) {
      const s = (await h.request('GET', `/customers/${c}`)).body
      assert.equal([s.creditAlerts, s.isSuspended, s.status], [['creditLimitCalls'], false, 'Active'], 'the alert, nothing more')
      assert.is((await events(h, 'customer.credit_alert')).filter((e) => e.data.id === c).length, 1)
    }
    assert.equal((await events(h, 'number.bar_requested')).filter((e) => e.data.number.customerID === barring), [], 'not barred')
    assert.equal(await withheld(barring), [['bar', 'regulatorProtection', null, ['creditLimitCalls'], [barringNumber]]])
    assert.equal(await withheld(suspending), [['suspend', 'regulatorProtection', null, ['creditLimitCalls'], []]])
    assert.equal(await withheld(consumer), [['suspend', 'regulatorProtection', 'Consumer', ['creditLimitCalls'], []]])
    // Still over: a further import withholds nothing new.
    await upload(h, april('01617770011'), april('01617770013'))
    assert.is((await withheld(barring)).length + (await withheld(consumer)).length, 2)
  })

  test('bar: each number passing its own limit is barred, though another keeps the alert raised; one back under and over again is barred again', async ({ h }) => {
    h.clock.set('2026-05-05T09:00:00Z')
    const c = await newCustomer(h, { dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected' })
    const number = async (digits: string, creditLimit: number) => {
      const r = await h.request('POST', `/customers/${c}/numbers`, { number: digits, nationalTariff: 'Limits', creditLimit })
      assert.is(r.status, 201, r.text)
      return r.body.id as string
    }
    const [n1, n2, n3] = [await number('0161 777 0021', 1), await number('0161 777 0022', 1), await number('0161 777 0023', 5)]
    let minute = 0
    // Each call at a minute of its own: the same call twice is one call.
    const may = (digits: string, seconds: number) => call(digits, seconds).replace('2026-01-14T10:00', `2026-05-02T10:${String(minute++).padStart(2, '0')}`)
    const bars = async () => (await events(h, 'number.bar_requested')).filter((e) => e.data.number.customerID === c).map((e) => [e.data.number.id, e.data.reason])
    await upload(h, may('01617770021', 180))
    assert.equal(await bars(), [[n1, ['numberCreditLimit']]])
    // Number 0021 stays over, so the customer's numberCreditLimit alert stays raised: 0022 passing its own limit is barred all the same.
    await upload(h, may('01617770022', 180), may('01617770023', 120))
    assert.equal(await bars(), [[n1, ['numberCreditLimit']], [n2, ['numberCreditLimit']]])
    assert.equal((await h.request('GET', `/customers/${c}`)).body.creditAlerts, ['numberCreditLimit'])
    assert.is((await events(h, 'customer.credit_alert')).filter((e) => e.data.id === c).length, 1, 'the alert is announced once')
    // A limit lowered below a number's charges passes it at once.
    assert.is((await h.request('PATCH', `/numbers/${n3}`, { creditLimit: 1 })).status, 200)
    assert.equal((await bars()).length, 3)
    assert.equal((await bars())[2], [n3, ['numberCreditLimit']])
    // 0021's limit raised above its charges: back under; passing the new limit later bars it again.
    assert.is((await h.request('PATCH', `/numbers/${n1}`, { creditLimit: 10 })).status, 200)
    await upload(h, may('01617770021', 300))
    assert.equal((await bars()).length, 3, 'under its new limit: nothing')
    await upload(h, may('01617770021', 300))
    assert.equal((await bars()).slice(3), [[n1, ['numberCreditLimit']]], 'over again: barred again')
    await upload(h, may('01617770021', 60), may('01617770022', 60))
    assert.equal((await bars()).length, 4, 'still over: nothing more')
  })

  test('onCreditLimit is checked in the presets file', () => {
    assert.throws(() => mergePresets({ dunningProfiles: { X: { steps: [], onCreditLimit: 'cut off' } } }), /onCreditLimit/)
    assert.throws(() => mergePresets({ dunningProfiles: { X: { steps: [{ afterDays: 3, action: 'shout' }] } } }), /action/)
    assert.throws(() => mergePresets({ dunningProfiles: { X: { steps: [] } }, defaultDunningProfile: 'Y' }), /defaultDunningProfile/)
  })

  test.run()

  const writes = suite<{ h: Harness }>(`credit limits that act on every write that passes them [${target}]`)
  writes.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z', presets })
  })
  writes.after.each(async (ctx) => ctx.h.close())

  const jobs = async (h: Harness, ...names: string[]) => {
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    for (const name of names) await scheduler.runNow(name)
    await scheduler.stop()
  }
  const charge = async (h: Harness, c: string, amount: string) => {
    const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Installation', amount })
    assert.is(r.status, 201, r.text)
  }
  const suspensions = async (h: Harness, c: string) => (await events(h, 'customer.suspended')).filter((e) => e.data.id === c).length

  writes('a manual transaction passing creditLimit suspends with it; a later run does not suspend again', async ({ h }) => {
    const c = await newCustomer(h, { creditLimit: 50, dunningProfile: 'Suspending', regulatorProtectionClass: 'Not Protected' })
    await charge(h, c, '40.00')
    assert.is((await h.request('GET', `/customers/${c}`)).body.isSuspended, false, 'within the limit')
    await charge(h, c, '60.00')
    const s = (await h.request('GET', `/customers/${c}`)).body
    assert.equal([s.creditAlerts, s.isSuspended, s.status, s.statusReason], [['creditLimit'], true, 'Suspended', 'Credit Limit'])
    const history = ((await h.request('GET', `/customers/${c}/history`)).body as any[]).filter((e) => e.action === 'suspend')
    assert.equal(history.map((e) => e.apiKeyName), ['test-admin'], 'in the transaction of the charge, by its key')
    await bill(h, '2026-01-31')
    assert.is(await suspensions(h, c), 1)
  })

  writes('the overdue job passing creditLimitOverdue suspends; run again it does not suspend twice', async ({ h }) => {
    const c = await newCustomer(h, { creditLimitOverdue: 10, paymentTerms: 14, dunningProfile: 'Suspending', regulatorProtectionClass: 'Not Protected' })
    await charge(h, c, '100.00')
    await bill(h, '2026-01-31')
    assert.is((await h.request('GET', `/customers/${c}`)).body.isSuspended, false, 'not overdue yet')
    h.clock.set('2026-02-20T00:30:00Z')
    await jobs(h, 'invoice-overdue')
    const s = (await h.request('GET', `/customers/${c}`)).body
    assert.equal([s.creditAlerts, s.overdueAmount, s.isSuspended, s.statusReason], [['creditLimitOverdue'], 100, true, 'Credit Limit'])
    await jobs(h, 'invoice-overdue', 'dunning')
    assert.is(await suspensions(h, c), 1)
  })

  writes('bar: the balance, unsent and overdue limits alert only; the limits on calls bar (see above)', async ({ h }) => {
    const c = await newCustomer(h, { creditLimit: 50, creditLimitUnsent: 10, creditLimitOverdue: 10, paymentTerms: 14, dunningProfile: 'Barring', regulatorProtectionClass: 'Not Protected' })
    for (const number of ['020 7946 0201', '020 7946 0202']) assert.is((await h.request('POST', `/customers/${c}/numbers`, { number })).status, 201)
    await charge(h, c, '100.00')
    const alerts = async () => (await h.request('GET', `/customers/${c}`)).body.creditAlerts
    assert.equal(await alerts(), ['creditLimit'])
    await bill(h, '2026-01-31')
    assert.equal(await alerts(), ['creditLimit', 'creditLimitUnsent'])
    h.clock.set('2026-02-20T00:30:00Z')
    await jobs(h, 'invoice-overdue')
    assert.equal(await alerts(), ['creditLimit', 'creditLimitOverdue', 'creditLimitUnsent'])
    assert.equal(await events(h, 'number.bar_requested'), [], 'no number barred')
    assert.is((await events(h, 'customer.credit_alert')).length, 3, 'each alert raised')
    assert.is((await h.request('GET', `/customers/${c}`)).body.isSuspended, false)
  })

  writes.run()
}
