import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 9.3, 9.4 and 17.5 on every database: a charge change that gives no committed count
 * supersedes the later prices and counts, never a later change of `featureCountCommitted`, so the
 * committed count the feature shows is the one it is billed at from the date it was set for.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`charge changes keep a scheduled committed count [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-10T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const recurring = async (h: Harness, f: string) => (await ledgerOf(h, f)).filter((r) => r[0].startsWith('Recurring Charge')).map((r) => r.join(' '))
  const patch = async (h: Harness, f: string, body: Record<string, unknown>) => {
    const r = await h.request('PATCH', `/features/${f}`, body)
    assert.is(r.status, 200, JSON.stringify(r.body))
    return r.body
  }
  /** 10.00 Calendar Monthly for one from 1 January, committed 5 scheduled from 1 July. */
  const scheduled = async (h: Harness) => {
    h.clock.set('2026-02-10T10:00:00.000Z')
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await patch(h, f, { featureCountCommitted: 5, updatedDate: '2026-07-01' })
    return f
  }
  /** Bills through September and again: the second run writes nothing. */
  const billQ3 = async (h: Harness, f: string) => {
    h.clock.set('2026-09-30T10:00:00.000Z')
    await bill(h, '2026-09-30')
    const rows = await recurring(h, f)
    await bill(h, '2026-09-30')
    assert.equal(await recurring(h, f), rows)
    return rows
  }
  const last = ['31', '28', '31', '30', '31', '30', '31', '31', '30']
  const months = (amounts: number[]) => amounts.map((a, i) => `Recurring Charge 2026-0${i + 1}-01 2026-0${i + 1}-${last[i]} ${a}`)

  test('a replace of the price from 1 March keeps the committed count 5 from 1 July: July on 5 × 12.00', async ({ h }) => {
    const f = await scheduled(h)
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-03-01' })
    const after = (await h.request('GET', `/features/${f}`)).body
    assert.equal([after.serviceCharge, after.featureCount, after.featureCountCommitted], [12, 1, 5])
    assert.equal(await billQ3(h, f), months([10, 10, 12, 12, 12, 12, 60, 60, 60]))
  })

  test('a PATCH of the price from 1 March keeps it too, and bills no committed count before July', async ({ h }) => {
    const f = await scheduled(h)
    const after = await patch(h, f, { serviceCharge: '12.00', updatedDate: '2026-03-01' })
    assert.equal([after.serviceCharge, after.featureCountCommitted], [12, 5])
    assert.equal(await billQ3(h, f), months([10, 10, 12, 12, 12, 12, 60, 60, 60]))
  })

  test('a PATCH of the committed count from an earlier date sets it from then on: 3 from 1 May supersedes the 5', async ({ h }) => {
    const f = await scheduled(h)
    const after = await patch(h, f, { featureCountCommitted: 3, updatedDate: '2026-05-01' })
    assert.is(after.featureCountCommitted, 3)
    assert.equal(await billQ3(h, f), months([10, 10, 10, 10, 30, 30, 30, 30, 30]))
  })

  test.run()
}
