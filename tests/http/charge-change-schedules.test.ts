import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 9.3, 9.4 and 17.5 on every database: a charge change a person makes from an earlier
 * date supersedes the later prices and counts, never a later change of `serviceChargeInterval` or
 * `featureCountCommitted` it does not make itself, so what the feature shows is what it is billed.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`charge changes keep a scheduled interval or committed count [${target}]`)
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
  const quarterly = { serviceChargeInterval: 'Calendar Quarterly', updatedDate: '2026-07-01' }
  const committed5 = { featureCountCommitted: 5, updatedDate: '2026-07-01' }
  /** 10.00 Calendar Monthly for one from 1 January, with `change` (from 1 July) scheduled by a PATCH. */
  const scheduled = async (h: Harness, change: Record<string, unknown>) => {
    h.clock.set('2026-02-10T10:00:00.000Z')
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await patch(h, f, change)
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

  test('a replace from 1 March keeps the Calendar Quarterly scheduled from 1 July: March to June 12.00 a month, then one Q3 period of 12.00', async ({ h }) => {
    const f = await scheduled(h, quarterly)
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-03-01' })
    const after = (await h.request('GET', `/features/${f}`)).body
    assert.equal([after.serviceCharge, after.serviceChargeInterval], [12, 'Calendar Quarterly'])
    assert.equal(await billQ3(h, f), [...months([10, 10, 12, 12, 12, 12]), 'Recurring Charge 2026-07-01 2026-09-30 12'])
  })

  test('a PATCH of serviceCharge and featureCount from 1 March keeps it too: Q3 is one period of 2 × 12.00', async ({ h }) => {
    const f = await scheduled(h, quarterly)
    const after = await patch(h, f, { serviceCharge: '12.00', featureCount: 2, updatedDate: '2026-03-01' })
    assert.equal([after.serviceCharge, after.featureCount, after.serviceChargeInterval], [12, 2, 'Calendar Quarterly'])
    assert.equal(await billQ3(h, f), [...months([10, 10, 24, 24, 24, 24]), 'Recurring Charge 2026-07-01 2026-09-30 24'])
  })

  const q3 = ['Recurring Charge 2026-06-01 2026-06-30 12', 'Recurring Charge 2026-07-01 2026-09-30 12']

  test('delta keeps it as replace does: Q3 is one period at the new price', async ({ h }) => {
    const f = await scheduled(h, quarterly)
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-03-01', chargeChangeMode: 'delta' })
    assert.equal((await billQ3(h, f)).slice(-2), q3)
  })

  test('add keeps it as replace does: Q3 is one period at the new price', async ({ h }) => {
    const add = await scheduled(h, quarterly)
    await bill(h, '2026-02-10')
    // The add charges again from 1 February, without refunding the 10.00 charged.
    await act(h, `/features/${add}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-02-01', chargeChangeMode: 'add' })
    assert.equal((await billQ3(h, add)).slice(-2), q3)
  })

  test('a PATCH of the interval from an earlier date sets it from then on, as a price: Quarterly from 1 May, the scheduled Calendar Quarterly superseded', async ({ h }) => {
    const f = await scheduled(h, quarterly)
    const after = await patch(h, f, { serviceChargeInterval: 'Quarterly', updatedDate: '2026-05-01' })
    assert.is(after.serviceChargeInterval, 'Quarterly')
    assert.equal(await billQ3(h, f), [
      ...months([10, 10, 10, 10]),
      'Recurring Charge 2026-05-01 2026-07-31 10',
      'Recurring Charge 2026-08-01 2026-10-31 10',
    ])
  })

  test('a replace of the price from 1 March keeps the committed count 5 from 1 July: July on 5 × 12.00', async ({ h }) => {
    const f = await scheduled(h, committed5)
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '12.00', dateFrom: '2026-03-01' })
    const after = (await h.request('GET', `/features/${f}`)).body
    assert.equal([after.serviceCharge, after.featureCount, after.featureCountCommitted], [12, 1, 5])
    assert.equal(await billQ3(h, f), months([10, 10, 12, 12, 12, 12, 60, 60, 60]))
  })

  test('a PATCH of the price from 1 March keeps it too, and bills no committed count before July', async ({ h }) => {
    const f = await scheduled(h, committed5)
    const after = await patch(h, f, { serviceCharge: '12.00', updatedDate: '2026-03-01' })
    assert.equal([after.serviceCharge, after.featureCountCommitted], [12, 5])
    assert.equal(await billQ3(h, f), months([10, 10, 12, 12, 12, 12, 60, 60, 60]))
  })

  test('a PATCH of the committed count from an earlier date sets it from then on: 3 from 1 May supersedes the 5', async ({ h }) => {
    const f = await scheduled(h, committed5)
    const after = await patch(h, f, { featureCountCommitted: 3, updatedDate: '2026-05-01' })
    assert.is(after.featureCountCommitted, 3)
    assert.equal(await billQ3(h, f), months([10, 10, 10, 10, 30, 30, 30, 30, 30]))
  })

  test.run()
}
