import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { announceContractEnds } from '../../core/contract-ends/announce-contract-ends.js'
import { act, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const notices = async (h: Harness) =>
  ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[])
    .filter((e) => e.type === 'contract.ending')
    .map(({ data: { item, ...rest } }) => ({ ...rest, id: item.id, contractEndNoticeDate: item.contractEndNoticeDate }))
const noticeHistory = async (h: Harness, path: string) =>
  ((await h.request('GET', `${path}/history`)).body as any[])
    .filter((e) => e.action === 'contractEndNotice')
    .map((e) => [e.apiKeyName, e.changes.contractEndNoticeDate, e.changes.contractEndNoticeFor])
const job = async (h: Harness) => {
  const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
  await scheduler.runNow('contract-end-notices')
  await scheduler.stop()
}
const created = async (h: Harness, path: string, body: Record<string, unknown>) => {
  const r = await h.request('POST', path, body)
  assert.is(r.status, 201, r.text)
  return r.body.id as string
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`end-of-contract notices: the contract-end-notices job [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-03-01T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('announced once per end date within 40 days of it; a dropped item never; an extended contract again; the marks are read-only', async ({ h }) => {
    // 2026-03-01 + 40 days = 2026-04-10.
    const consumer = await newCustomer(h, { accountNumber: 'CEN-1', contractEndDate: '2026-04-10' })
    const business = await newCustomer(h, { accountNumber: 'CEN-2', regulatorProtectionClass: 'Not Protected' })
    const number = await created(h, `/customers/${business}/numbers`, { number: '0161 555 0101', contractEndDate: '2026-04-11' })
    const dropped = await created(h, `/customers/${business}/services`, { serviceName: 'Broadband', contractEndDate: '2026-03-20' })
    await act(h, `/services/${dropped}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-01' })
    const past = await created(h, `/customers/${business}/services`, { serviceName: 'Leased line', contractEndDate: '2026-02-28' })

    await job(h)
    await job(h)
    const first = { resource: 'customers', id: consumer, customerID: consumer, contractEndDate: '2026-04-10', daysLeft: 40, requiresProtection: true, contractEndNoticeDate: '2026-03-01' }
    assert.equal(await notices(h), [first], 'the customer 40 days ahead, once in two runs; the number 41 days ahead not yet')
    const customer = (await h.request('GET', `/customers/${consumer}`)).body
    assert.equal([customer.contractEndNoticeDate, customer.contractEndNoticeFor], ['2026-03-01', '2026-04-10'])
    assert.equal(await noticeHistory(h, `/customers/${consumer}`), [['system', [null, '2026-03-01'], [null, '2026-04-10']]])
    for (const [path, field] of [[`/customers/${consumer}`, 'contractEndNoticeDate'], [`/numbers/${number}`, 'contractEndNoticeFor'], [`/services/${past}`, 'contractEndNoticeDate']]) {
      assert.is((await h.request('PATCH', path, { [field]: '2026-01-01' })).body.error_code, 400102, `${path} ${field} is read-only`)
    }

    // Extended by six months before the next run: nothing to announce until the new date is 40 days away.
    assert.is((await h.request('PATCH', `/customers/${consumer}`, { contractEndDate: '2026-10-10' })).status, 200)
    h.clock.set('2026-03-02T09:00:00Z')
    await job(h)
    const second = { resource: 'numbers', id: number, customerID: business, contractEndDate: '2026-04-11', daysLeft: 40, requiresProtection: false, contractEndNoticeDate: '2026-03-02' }
    assert.equal(await notices(h), [first, second], 'the number a day later; the dropped service and the past end never')
    assert.equal(await noticeHistory(h, `/numbers/${number}`), [['system', [null, '2026-03-02'], [null, '2026-04-11']]])

    h.clock.set('2026-08-30T09:00:00Z')
    await job(h)
    assert.is((await notices(h)).length, 2, 'the new end 2026-10-10 is 41 days away: tomorrow')
    h.clock.set('2026-08-31T09:00:00Z')
    await job(h)
    const third = { ...first, contractEndDate: '2026-10-10', daysLeft: 40, contractEndNoticeDate: '2026-08-31' }
    assert.equal(await notices(h), [first, second, third], 'the extended contract is announced again, once')
    assert.equal((await noticeHistory(h, `/customers/${consumer}`)).at(-1), ['system', ['2026-03-01', '2026-08-31'], ['2026-04-10', '2026-10-10']])
    assert.is((await h.request('GET', `/services/${dropped}`)).body.contractEndNoticeDate, null)
  })

  test('two runs at once announce an item once', async ({ h }) => {
    h.clock.set('2026-11-01T09:00:00Z')
    const c = await newCustomer(h, { accountNumber: 'CEN-3', contractEndDate: '2026-11-20' })
    const before = (await notices(h)).length
    const [a, b] = await Promise.all([announceContractEnds(h.platform.context), announceContractEnds(h.platform.context)])
    assert.is(a.customers + b.customers, 1)
    assert.equal((await notices(h)).slice(before).map((n) => [n.id, n.daysLeft]), [[c, 19]])
  })

  test.run()
}
