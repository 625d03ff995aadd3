import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const post = async (h: Harness, c: string, transactionType: string, amount: string) => {
  const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType, amount })
  assert.is(r.status, 201, r.text)
}
const topups = async (h: Harness) => ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'customer.topup_requested').map((e) => e.data)
const history = async (h: Harness, c: string) =>
  ((await h.request('GET', `/customers/${c}/history`)).body as any[]).filter((e) => e.action.startsWith('topup')).map((e) => [e.action, e.apiKeyName, e.changes.autoTopupRequestedDate])
const requestedDate = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}`)).body.autoTopupRequestedDate
const job = async (h: Harness) => {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('auto-topup')
  await scheduler.stop()
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`automatic top-ups: the auto-topup job [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('asked once when funds fall below the threshold, cleared once they are back, asked again at the next fall', async ({ h }) => {
    const t = await h.request('POST', '/tariffs', { name: 'Topups', baseRoundSeconds: 60 })
    assert.is((await h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '1.00' })).status, 201)
    const ten = 'Top up when below £10'
    const c = await newCustomer(h, { accountNumber: 'TOP-1', autoTopupProfile: ten, autoTopupAmount: '25.00', paymentMethod: 'Card' })
    const toThreshold = await newCustomer(h, { accountNumber: 'TOP-2', autoTopupProfile: ten })
    const none = await newCustomer(h, { accountNumber: 'TOP-3', autoTopupProfile: 'None', autoTopupAmount: '25.00' })
    const unprofiled = await newCustomer(h, { accountNumber: 'TOP-4', autoTopupAmount: '25.00' })
    const dropped = await newCustomer(h, { accountNumber: 'TOP-5', autoTopupProfile: 'Top up when below £50' })
    for (const x of [c, toThreshold, none, unprofiled, dropped]) await post(h, x, 'Payment', '30.00')
    await act(h, `/customers/${dropped}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    await job(h)
    assert.equal(await topups(h), [], 'funds of 30.00 are not below 10.00; a dropped customer is never asked')

    // Billed 24.00 for February, and 2.00 of calls since that no run has billed: 30.00 - 24.00 - 2.00 = 4.00.
    assert.is((await h.request('POST', `/customers/${c}/features`, { startDate: '2026-02-01', serviceCharge: '24.00', serviceChargeInterval: 'Calendar Monthly' })).status, 201)
    assert.is((await h.request('POST', `/customers/${c}/numbers`, { number: '0161 777 0101', nationalTariff: 'Topups' })).status, 201)
    await bill(h, '2026-02-28')
    h.clock.set('2026-03-02T09:00:00Z')
    const upload = await h.request('POST', '/usageFiles?name=calls.csv', undefined, {
      raw: `${header}\n01617770101,01632960999,2026-03-01T10:00:00Z,120,NAT,national,Gamma\n`,
      headers: { 'content-type': 'text/csv' },
    })
    assert.is(upload.status, 201, upload.text)
    for (const x of [toThreshold, none, unprofiled]) await post(h, x, 'Debit Note', '26.00')
    await job(h)
    const common = { currency: 'GBP', threshold: 10, funds: 4, directDebitMandate: null }
    assert.equal(await topups(h), [
      { customerID: c, accountNumber: 'TOP-1', amount: 25, paymentMethod: 'Card', ...common },
      { customerID: toThreshold, accountNumber: 'TOP-2', amount: 6, paymentMethod: null, ...common },
    ], 'its autoTopupAmount, or without one what brings the funds back to the threshold; None and no profile are never asked')
    assert.is(await requestedDate(h, c), '2026-03-02')
    assert.equal(await history(h, c), [['topupRequested', 'system', [null, '2026-03-02']]])
    assert.is((await h.request('PATCH', `/customers/${c}`, { autoTopupRequestedDate: null })).body.error_code, 400102, 'read-only')

    await job(h)
    assert.is((await topups(h)).length, 2, 'not asked again while the funds stay below')

    await post(h, c, 'Payment', '25.00')
    h.clock.set('2026-03-03T09:00:00Z')
    await job(h)
    assert.is(await requestedDate(h, c), null, 'funds of 29.00: the mark is cleared')
    assert.equal(await history(h, c), [['topupRequested', 'system', [null, '2026-03-02']], ['topupCleared', 'system', ['2026-03-02', null]]])
    assert.is(await requestedDate(h, toThreshold), '2026-03-02', 'still below: still asked')
    assert.is((await topups(h)).length, 2)

    await post(h, c, 'Debit Note', '25.00')
    await job(h)
    const again = (await topups(h)).slice(2)
    assert.equal(again.map((e) => [e.customerID, e.amount, e.funds]), [[c, 25, 4]], 'the next fall asks again')
    assert.is(await requestedDate(h, c), '2026-03-03')
  })

  test.run()
}
