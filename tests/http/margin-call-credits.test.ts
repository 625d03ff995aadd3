import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 16.2: a credit note line on a `Call Charges` row counts by carrier and by call class
 * where the row's calls do, each its share of the row's net; what the split leaves is `null`'s.
 */
const get = async (h: Harness, path: string) => {
  const r = await h.request('GET', path)
  assert.is(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
  return r.body
}
const cents = (x: number) => Math.round(x * 10_000)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`books: credit notes on call charges by carrier and class (contract 16.2) [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('a credit note line on a Call Charges row is split by its calls, and crediting all of it leaves every carrier and class at nothing', async ({ h }) => {
    const mobile = (await h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${mobile}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: '0.10', costConnection: '0.02' })
    const c = await newCustomer(h, { accountNumber: 'MC-1', defaultMobileTariff: 'UK Mobile', defaultNationalTariff: 'UK Mobile' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 001' })).body.id
    assert.is((await h.request('POST', `/numbers/${n}/features`, { featureType: 'Hosted Seat', startDate: '2026-01-01' })).status, 201)
    // Three 61 s calls, one a carrier, 0.22 each (two minutes at 0.10, 0.02 to connect): one row of 0.66.
    const calls = [
      ['Gamma', 'mobile', '0.05'],
      ['Daisy', 'mobile', '0.04'],
      ['Vodafone', 'national', '0.03'],
    ].map(([carrier, callClass, cost], i) => `01632960001,0770090000${i},2026-01-1${i}T10:00:00Z,61,MOB,${callClass},${carrier},${cost}`)
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,wholesaleCost', ...calls].join('\n') + '\n'
    const upload = await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })
    assert.is(upload.status, 201, upload.text)
    await bill(h, '2026-01-31')
    const [row] = ((await get(h, `/customers/${c}/transactions`)) as any[]).filter((t) => t.transactionType === 'Call Charges')
    assert.is(row.amount, 0.66)
    h.clock.set('2026-02-05T09:00:00Z')
    const [invoice] = (await get(h, `/customers/${c}/invoices`)) as any[]
    const credit = async (amount: string) => {
      const r = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'calls', lines: [{ transactionID: row.id, amount }] })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    const margin = async (groupBy: string) => {
      const m = await get(h, `/reports/margin?groupBy=${groupBy}`)
      // Sums are exact and equal the ledger's: the row less its credits.
      const sum = m.rows.reduce((a: number, r: any) => a + cents(r.revenue), 0)
      assert.is(sum, cents(m.totals.revenue))
      return m.rows.map((r: any) => [r[groupBy], r.revenue, r.cost])
    }

    // 0.01 × 0.22 / 0.66 = 0.00333…: 0.0033 a carrier, the ten-thousandth left is null's.
    await credit('0.01')
    assert.equal(await margin('carrier'), [['Daisy', 0.2167, 0.04], ['Gamma', 0.2167, 0.05], ['Vodafone', 0.2167, 0.03], [null, -0.0001, 0]])
    assert.equal(await margin('callClass'), [['mobile', 0.4333, 0.09], ['national', 0.2167, 0.03]])
    // The rest of the row, 0.65: 0.21666… → 0.2167 a carrier; with the first, each carrier's 0.22 exactly.
    await credit('0.65')
    assert.equal(await margin('carrier'), [['Daisy', 0, 0.04], ['Gamma', 0, 0.05], ['Vodafone', 0, 0.03]])
    assert.equal(await margin('callClass'), [['mobile', 0, 0.09], ['national', 0, 0.03]])
  })

  test.run()
}
