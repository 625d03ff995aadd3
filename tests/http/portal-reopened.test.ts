import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * Closing a customer's portal (its `portalCustomerProfile` cleared) ends every session signed in
 * to it before (contract 14.3), even when the portal is opened again before the session's next
 * request: a session holds only while the portal it signed in to is still the same opening.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sessions end with the portal's opening [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const signedIn = async (base: string, fields: Record<string, string>) => {
    const v = new Visitor(base)
    assert.is((await v.signIn(fields)).location, '/portal/summary')
    assert.is((await v.go('GET', '/summary')).status, 200)
    return v
  }
  const ended = async (v: Visitor, why: string) => {
    assert.is((await v.go('GET', '/invoices')).location, '/portal/sign-in', `${why}: back to sign-in`)
    assert.not.ok(v.cookies.has('portal_session'), `${why}: the cookie is cleared`)
  }
  const sam = { method: 'password', email: 'sam@shared.example', password: 'shared secret words' }
  const choose = async (v: Visitor, customerID: string) => v.go('POST', '/choose', { csrf: v.csrf((await v.go('GET', '/choose')).text), customerID })
  const setPortal = async (h: Harness, id: string, portalCustomerProfile: string | null) =>
    assert.is((await h.request('PATCH', `/customers/${id}`, { portalCustomerProfile })).status, 200)

  test('the portal closed and opened again with no request between ends the PIN and contact sessions on it; new sign-ins work', async ({ h, base }) => {
    const w = await world(h)
    const beta = { method: 'pin', accountNumber: 'ACC-2', pin: w.pin }
    const pinSession = await signedIn(base, beta)
    const samOnB = new Visitor(base)
    await samOnB.signIn(sam)
    assert.is((await choose(samOnB, w.b)).location, '/portal/summary')
    assert.is((await samOnB.go('GET', '/summary')).status, 200)
    const ann = await signedIn(base, { method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })

    await setPortal(h, w.b, null)
    await setPortal(h, w.b, 'Standard Portal')
    await ended(pinSession, "a PIN's session from before the close")
    await ended(samOnB, "a contact's session from before the close")
    assert.is((await ann.go('GET', '/summary')).status, 200, "another customer's session is untouched")

    const again = await signedIn(base, beta)
    const samAgain = new Visitor(base)
    await samAgain.signIn(sam)
    assert.is((await choose(samAgain, w.b)).location, '/portal/summary')
    assert.is((await samAgain.go('GET', '/summary')).status, 200, 'a contact signed in after the opening')
    // A change of profile is not a close: the sessions of this opening carry on.
    await setPortal(h, w.b, 'View Only')
    assert.is((await again.go('GET', '/summary')).status, 200)
    assert.is((await samAgain.go('GET', '/summary')).status, 200)
  })

  test('a contact that had not chosen yet no longer chooses a portal closed and opened again since it signed in', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    assert.is((await v.signIn(sam)).location, '/portal/choose')
    await setPortal(h, w.b, null)
    await setPortal(h, w.b, 'Standard Portal')
    const list = await v.go('GET', '/choose')
    assert.match(list.text, /Alpha Ltd/)
    assert.not.match(list.text, /Beta Ltd/, 'not offered')
    assert.is((await choose(v, w.b)).location, '/portal/choose', 'refused as an account not its own')
    assert.is((await v.go('GET', '/summary')).location, '/portal/choose')
    assert.is((await choose(v, w.a)).location, '/portal/summary', 'the portal left open is chosen as before')
    assert.is((await v.go('GET', '/summary')).status, 200)

    // Every portal it signed in to closed and opened again: the session is over.
    const other = new Visitor(base)
    await other.signIn(sam)
    for (const id of [w.a, w.b]) {
      await setPortal(h, id, null)
      await setPortal(h, id, 'Standard Portal')
    }
    assert.is((await other.go('GET', '/choose')).location, '/portal/sign-in')
    assert.not.ok(other.cookies.has('portal_session'))
  })

  test.run()
}
