import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * A customer's account number and PIN are the login its PIN sessions signed in with (contract
 * 14.3): a new PIN (the old one leaked), a PIN cleared, the account number changed or the portal
 * closed ends them at their next request, as a contact's new password or email ends its
 * sessions (portal-email-sessions.test.ts). The portal closed ends the contacts' sessions on the
 * customer too, even when it is opened again before their next request: a session holds only while
 * the portal it signed in to is still the same opening.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sessions end with their PIN [${target}]`)
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

  test("a regenerated PIN ends the customer's PIN sessions; the new PIN signs in, the old one no longer does", async ({ h, base }) => {
    const w = await world(h)
    const beta = { method: 'pin', accountNumber: 'ACC-2', pin: w.pin }
    const phone = await signedIn(base, beta)
    const laptop = await signedIn(base, beta)
    const pinA = (await h.request('POST', `/customers/${w.a}?action=generatePIN`, {})).body.pin
    const alpha = await signedIn(base, { method: 'pin', accountNumber: 'ACC-1', pin: pinA })
    const samOnB = new Visitor(base)
    await samOnB.signIn(sam)
    await samOnB.go('POST', '/choose', { csrf: samOnB.csrf((await samOnB.go('GET', '/choose')).text), customerID: w.b })
    assert.is((await samOnB.go('GET', '/summary')).status, 200)

    const { pin } = (await h.request('POST', `/customers/${w.b}?action=generatePIN`, {})).body
    await ended(phone, 'phone')
    await ended(laptop, 'laptop')
    assert.is((await alpha.go('GET', '/summary')).status, 200, "another customer's PIN session is untouched")
    assert.is((await samOnB.go('GET', '/summary')).status, 200, "a contact's session on the customer is untouched")
    assert.is((await new Visitor(base).signIn(beta)).status, 401, 'the old PIN signs nobody in')
    await signedIn(base, { ...beta, pin })
  })

  test('a changed account number ends the PIN sessions; a change of anything else ends nothing', async ({ h, base }) => {
    const w = await world(h)
    const v = await signedIn(base, { method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    const token = v.cookies.get('portal_session')!
    assert.is((await h.request('PATCH', `/customers/${w.b}`, { companyName: 'Beta Group Ltd' })).status, 200)
    assert.is((await v.go('GET', '/summary')).status, 200, 'a change of anything else ends nothing')

    assert.is((await h.request('PATCH', `/customers/${w.b}`, { accountNumber: 'ACC-22' })).status, 200)
    await ended(v, 'account number changed')
    // Set back, the number signs in again, but only afresh: the session it had is over.
    assert.is((await h.request('PATCH', `/customers/${w.b}`, { accountNumber: 'ACC-2' })).status, 200)
    const replay = new Visitor(base)
    replay.cookies.set('portal_session', token)
    assert.is((await replay.go('GET', '/summary')).location, '/portal/sign-in')
    const afresh = await signedIn(base, { method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    // A session from before sessions of a PIN kept their digest ends once.
    await h.platform.database.db.updateTable('portal_sessions').set({ pinDigest: null }).execute()
    await ended(afresh, 'a session from before the upgrade')
  })

  test("a cleared PIN, or the portal closed, ends the PIN sessions and the contacts' sessions on the customer; the portal opened again does not bring them back", async ({ h, base }) => {
    const w = await world(h)
    const beta = { method: 'pin', accountNumber: 'ACC-2', pin: w.pin }
    const v = await signedIn(base, beta)
    const token = v.cookies.get('portal_session')!
    const annSession = await signedIn(base, { method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const samOnB = new Visitor(base)
    await samOnB.signIn(sam)
    await samOnB.go('POST', '/choose', { csrf: samOnB.csrf((await samOnB.go('GET', '/choose')).text), customerID: w.b })
    assert.is((await samOnB.go('GET', '/summary')).status, 200)
    const samToken = samOnB.cookies.get('portal_session')!

    assert.is((await h.request('PATCH', `/customers/${w.b}`, { portalCustomerProfile: null })).status, 200)
    await ended(v, 'portal closed')
    // A contact's session on the customer ends as a PIN's does (not a 404 page), as it does when the
    // contact is unlinked from it, though the contact still reaches other customers: it signs in again.
    await ended(samOnB, "portal closed: a contact's session on the customer")
    assert.is((await new Visitor(base).signIn(sam)).location, '/portal/summary', 'signing in again: the one customer left open, no choice')
    assert.is((await h.request('PATCH', `/customers/${w.b}`, { portalCustomerProfile: 'Standard Portal' })).status, 200)
    for (const [name, t] of [['PIN', token], ['contact', samToken]] as const) {
      const replay = new Visitor(base)
      replay.cookies.set('portal_session', t)
      assert.is((await replay.go('GET', '/summary')).location, '/portal/sign-in', `${name}: the portal opened again: the session stays over`)
    }
    assert.is((await annSession.go('GET', '/summary')).status, 200, "another customer's session is untouched")

    // No route clears a PIN (it is read-only): one cleared in the database ends its sessions too.
    const again = await signedIn(base, beta)
    await h.platform.database.db.updateTable('customers').set({ portalPIN: null }).where('id', '=', h.platform.database.dialect.encodeId(w.b)).execute()
    await ended(again, 'PIN cleared')
    assert.is((await new Visitor(base).signIn(beta)).status, 401)
  })

  // A close ends them even when the portal is opened again before their next request.
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
