import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * What a purged customer leaves outside its own tables (contract 5.6): its portal sessions and
 * failed sign-ins go with it (14.3), and the carriers' bills, which stay, no longer name its
 * features (17.4). The purge of its own items: tests/persistence/purge.test.ts.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`customer purge: portal and carrier bill remains [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const purgeJob = async (h: Harness) => {
    const failed: unknown[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => e.outcome === 'failed' && failed.push(e.error) })
    await scheduler.runNow('purge-customers')
    await scheduler.stop()
    assert.equal(failed, [])
  }
  const deleteAndPurge = async (h: Harness, customerID: string) => {
    assert.is((await h.request('DELETE', `/customers/${customerID}`)).status, 200)
    h.clock.advanceMs(31 * 86_400_000)
    await purgeJob(h)
    assert.is((await h.request('GET', `/customers/${customerID}`)).status, 404)
  }

  test("the purge removes the customer's and its direct contacts' portal sessions and failed sign-ins, not others'", async ({ h, base }) => {
    const w = await world(h)
    const pinA = (await h.request('POST', `/customers/${w.a}?action=generatePIN`, {})).body.pin
    // Bob's address, in another case, is also a contact's of Beta: a login that stays.
    await h.request('POST', `/customers/${w.a}/customerContacts`, { email: 'bob@alpha.example', accountPassword: 'bob at alpha' })
    await h.request('POST', `/customers/${w.b}/customerContacts`, { email: 'BOB@alpha.example', accountPassword: 'bob at beta' })
    const signIn = async (fields: Record<string, string>, choose?: string) => {
      const v = new Visitor(base)
      assert.is((await v.signIn(fields)).status, 303)
      if (choose) await v.go('POST', '/choose', { csrf: v.csrf((await v.go('GET', '/choose')).text), customerID: choose })
      assert.is((await v.go('GET', '/summary')).status, 200)
      return v
    }
    const sam = { method: 'password', email: 'sam@shared.example', password: 'shared secret words' }
    await signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    await signIn({ method: 'pin', accountNumber: 'ACC-1', pin: pinA })
    await signIn(sam, w.a)
    const samOnB = await signIn(sam, w.b)
    const pinB = await signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    for (const fields of <Record<string, string>[]>[
      { method: 'password', email: 'ann@alpha.example', password: 'wrong' },
      { method: 'password', email: 'Bob@Alpha.example', password: 'wrong' },
      { method: 'password', email: 'sam@shared.example', password: 'wrong' },
      { method: 'pin', accountNumber: ' ACC-1 ', pin: '000000' },
      { method: 'pin', accountNumber: 'ACC-2', pin: '000000' },
    ]) {
      assert.is((await new Visitor(base).signIn(fields)).status, 401)
    }
    const { db } = h.platform.database
    const sessions = async () =>
      (await db.selectFrom('portal_sessions').select(['customerID', 'contactID']).execute()).map((s) => `${s.customerID}/${s.contactID}`).sort()
    const failures = async () => (await db.selectFrom('portal_login_failures').select('login').execute()).map((f) => f.login).sort()
    assert.is((await sessions()).length, 5)
    assert.is((await failures()).length, 5)

    await deleteAndPurge(h, w.a)
    assert.equal(await sessions(), [`${w.b}/${w.shared.id}`, `${w.b}/null`].sort(), 'the sessions on Beta stay')
    assert.equal(await failures(), ['account:ACC-2', 'email:bob@alpha.example', 'email:sam@shared.example'])
    // The sessions left are Beta's, and idle since; signing in again works as before.
    assert.is((await samOnB.go('GET', '/summary')).location, '/portal/sign-in')
    assert.is((await pinB.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })).location, '/portal/summary')
  })

  test("the carriers' bills stay whole but no longer name a purged customer's features", async ({ h }) => {
    const gone = (await h.request('POST', '/customers', { accountNumber: 'GONE' })).body.id
    const keep = (await h.request('POST', '/customers', { accountNumber: 'KEEP' })).body.id
    const feature = async (c: string, fields: Record<string, unknown>) => {
      const r = await h.request('POST', `/customers/${c}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', carrier: 'Gamma', ...fields })
      assert.is(r.status, 201, JSON.stringify(r.body))
      return r.body.id as string
    }
    const goneMatched = await feature(gone, { carrierProduct: 'SIP', carrierReference: 'R1', serviceChargeCarrier: '4.00' })
    await feature(gone, { carrierProduct: 'HS', carrierReference: 'R2', serviceChargeCarrier: '12.50' })
    const keptMissing = await feature(keep, { carrierProduct: 'BB', carrierReference: 'R3', serviceChargeCarrier: '3.00' })
    const keptMatched = await feature(keep, { carrierProduct: 'IP', carrierReference: 'R4', serviceChargeCarrier: '5.00' })
    const csv = ['productCode,reference,description,quantity,cost', 'SIP,R1,SIP channel,1,4.00', 'IP,R4,Static IP,1,5.50'].join('\n')
    const posted = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { raw: csv, headers: { 'content-type': 'text/csv' } })
    assert.is(posted.status, 201, JSON.stringify(posted.body))
    const reconciliation = async () => (await h.request('GET', `/carrierBills/${posted.body.id}/reconciliation`)).body
    const before = await reconciliation()
    assert.equal(before.matched.map((m: any) => [m.line, m.featureID]), [[2, goneMatched], [3, keptMatched]])
    assert.equal(before.summary.notOnCarrierBill, { count: 2, expectedCost: 15.5 })

    await deleteAndPurge(h, gone)
    const after = await reconciliation()
    assert.equal(
      after.matched.map((m: any) => [m.line, m.featureID ?? null, m.cost, m.expectedCost]),
      [[2, null, 4, 4], [3, keptMatched, 5.5, 5]],
      'the line stays matched, with what it cost and was expected to, naming no feature',
    )
    assert.equal(after.costDiffers.map((m: any) => m.featureID), [keptMatched])
    assert.equal(after.summary.notOnCarrierBill, { count: 1, expectedCost: 3 }, 'the list and its count stay the same facts')
    assert.equal(after.notOnCarrierBill, [{ featureID: keptMissing, expectedCost: 3 }])
    assert.equal([after.summary.matched.count, after.summary.matched.carrierCost, after.carrierBill.totalCost], [2, 9.5, 9.5], "the carrier's bill is unchanged")
    assert.is.not(after.carrierBill.updatedStamp, before.carrierBill.updatedStamp, 'the bill shows it changed')
    const text = (await h.request('GET', `/carrierBills/${posted.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })).text
    const [header, ...rows] = text.trim().split('\r\n').map((l: string) => l.split(','))
    const column = header.indexOf('featureID')
    assert.equal(rows.filter((r: string[]) => !r[0].startsWith('total ')).map((r: string[]) => [r[0], r[column]]), [['matched', ''], ['costDiffers', keptMatched], ['notOnCarrierBill', keptMissing]], 'and the CSV')
  })

  test.run()
}
