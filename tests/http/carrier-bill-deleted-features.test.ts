import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A deleted feature leaves the carriers' bills as a purged customer's does
 * (customer-purge-remains.test.ts): the bill stays whole, its lines no longer name the feature,
 * and its `notOnCarrierBill` list, count and expected cost no longer hold it (contract 17.4).
 * Deleting a number or a service deletes its features, so takes them off too.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`carrier bills after features are deleted [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-05T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test("DELETE of a feature, a number or a service takes their features off the carriers' bills, which stay whole", async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'CB-1' })).body.id
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 940001' })).body.id
    const service = (await h.request('POST', `/customers/${c}/services`, {})).body.id
    const feature = async (path: string, fields: Record<string, unknown>) => {
      const r = await h.request('POST', `${path}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Gamma', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const own = `/customers/${c}`
    const matched = await feature(own, { carrierProduct: 'SIP', carrierReference: 'R1', serviceChargeCarrier: '4.00' })
    const missing = await feature(own, { carrierProduct: 'HS', carrierReference: 'R2', serviceChargeCarrier: '12.50' })
    const kept = await feature(own, { carrierProduct: 'BB', carrierReference: 'R3', serviceChargeCarrier: '3.00' })
    const onNumber = await feature(`/numbers/${number}`, { carrierProduct: 'LR', carrierReference: 'R5', serviceChargeCarrier: '7.25' })
    const onService = await feature(`/services/${service}`, { carrierProduct: 'IP', carrierReference: 'R4', serviceChargeCarrier: '5.00' })
    const csv = ['productCode,reference,description,quantity,cost', 'SIP,R1,SIP channel,1,4.00', 'IP,R4,Static IP,1,5.50'].join('\n')
    const posted = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
    assert.is(posted.status, 201, JSON.stringify(posted.body))
    const reconciliation = async () => (await h.request('GET', `/carrierBills/${posted.body.id}/reconciliation`)).body
    const before = await reconciliation()
    assert.equal(before.matched.map((m: any) => [m.line, m.featureID]), [[2, matched], [3, onService]])
    assert.equal(before.summary.notOnCarrierBill, { count: 3, expectedCost: 22.75 })

    h.clock.advanceMs(60_000)
    assert.is((await h.request('DELETE', `/features/${matched}`)).status, 200)
    assert.is((await h.request('DELETE', `/features/${missing}`)).status, 200)
    const afterFeatures = await reconciliation()
    assert.equal(afterFeatures.matched.map((m: any) => [m.line, m.featureID ?? null, m.cost, m.expectedCost]), [[2, null, 4, 4], [3, onService, 5.5, 5]], 'the line stays matched, naming no feature')
    assert.equal(afterFeatures.summary.notOnCarrierBill, { count: 2, expectedCost: 10.25 }, 'the list and its count stay the same facts')
    assert.equal(afterFeatures.notOnCarrierBill, [{ featureID: kept, expectedCost: 3 }, { featureID: onNumber, expectedCost: 7.25 }])
    assert.is.not(afterFeatures.carrierBill.updatedStamp, before.carrierBill.updatedStamp, 'the bill shows it changed')

    assert.is((await h.request('DELETE', `/numbers/${number}`)).status, 200)
    assert.is((await h.request('DELETE', `/services/${service}`)).status, 200)
    const after = await reconciliation()
    assert.equal(after.matched.map((m: any) => [m.line, m.featureID ?? null]), [[2, null], [3, null]])
    assert.equal(after.costDiffers.map((m: any) => [m.line, m.featureID ?? null]), [[3, null]], 'what the line cost and was expected to cost stays')
    assert.equal(after.summary.notOnCarrierBill, { count: 1, expectedCost: 3 })
    assert.equal(after.notOnCarrierBill, [{ featureID: kept, expectedCost: 3 }])
    assert.equal([after.summary.matched.count, after.summary.matched.carrierCost, after.carrierBill.totalCost], [2, 9.5, 9.5], "the carrier's bill is unchanged")
    const text = (await h.request('GET', `/carrierBills/${posted.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })).text
    const [header, ...rows] = text.trim().split('\r\n').map((l: string) => l.split(','))
    const column = header.indexOf('featureID')
    assert.equal(rows.filter((r: string[]) => !r[0].startsWith('total ')).map((r: string[]) => [r[0], r[column]]), [['matched', ''], ['costDiffers', ''], ['notOnCarrierBill', kept]], 'and the CSV')
  })

  test('a feature on no bill is deleted as before; a feature another bill lists leaves that bill only its own row', async ({ h }) => {
    const c = (await h.request('POST', '/customers', { accountNumber: 'CB-2' })).body.id
    const feature = async (fields: Record<string, unknown>) => (await h.request('POST', `/customers/${c}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', ...fields })).body.id as string
    const plain = await feature({})
    const gamma = await feature({ carrier: 'Gamma', carrierProduct: 'HS', carrierReference: 'R2', serviceChargeCarrier: '12.50' })
    const daisy = await feature({ carrier: 'Daisy', carrierProduct: 'HS', carrierReference: 'R2', serviceChargeCarrier: '2.00' })
    const post = async (carrier: string) => {
      const csv = ['productCode,reference,description,quantity,cost', 'XX,R9,Other,1,1.00'].join('\n')
      const r = await h.request('POST', `/carrierBills?carrier=${carrier}&period=2026-01`, undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const gammaBill = await post('Gamma')
    const daisyBill = await post('Daisy')
    const summary = async (id: string) => (await h.request('GET', `/carrierBills/${id}/reconciliation`)).body.summary.notOnCarrierBill
    assert.is((await h.request('DELETE', `/features/${plain}`)).status, 200)
    assert.is((await h.request('DELETE', `/features/${gamma}`)).status, 200)
    assert.equal(await summary(gammaBill), { count: 0, expectedCost: 0 })
    assert.equal(await summary(daisyBill), { count: 1, expectedCost: 2 }, `Daisy's bill still lists ${daisy}`)
  })

  test.run()
}
