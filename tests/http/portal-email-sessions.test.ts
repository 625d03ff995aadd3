import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * A contact's email is the login its session signed in with (contract 14.3): clearing or
 * changing it ends the sessions signed in with it, as a new password does (portal.test.ts).
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sessions end with their email [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const ann = { method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' }
  const sam = { method: 'password', email: 'sam@shared.example', password: 'shared secret words' }

  test("a changed email ends the contact's sessions; the new one signs in, the old one no longer does", async ({ h, base }) => {
    const w = await world(h)
    const phone = new Visitor(base)
    const laptop = new Visitor(base)
    for (const v of [phone, laptop]) assert.is((await v.signIn(ann)).location, '/portal/summary')
    const other = new Visitor(base)
    await other.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { lastname: 'Smith' })).status, 200)
    assert.is((await phone.go('GET', '/summary')).status, 200, 'a change of anything else ends nothing')

    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { email: 'ann.new@alpha.example' })).status, 200)
    for (const [name, v] of [['phone', phone], ['laptop', laptop]] as const) {
      assert.is((await v.go('GET', '/invoices')).location, '/portal/sign-in', `${name}: back to sign-in`)
      assert.not.ok(v.cookies.has('portal_session'), `${name}: the cookie is cleared`)
    }
    assert.is((await other.go('GET', '/summary')).status, 200, "another account's session is untouched")
    assert.is((await new Visitor(base).signIn(ann)).status, 401, 'the old address signs nobody in')
    const again = new Visitor(base)
    assert.is((await again.signIn({ ...ann, email: 'ann.new@alpha.example' })).location, '/portal/summary')
    assert.is((await again.go('GET', '/summary')).status, 200, 'a session of the new address works')

    // A change of case is a change of the login: sign-in finds the address as stored.
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { email: 'Ann.New@alpha.example' })).status, 200)
    assert.is((await again.go('GET', '/summary')).location, '/portal/sign-in')
  })

  test("a cleared email ends the contact's sessions, choosing or chosen, and a session cannot choose after it", async ({ h, base }) => {
    const w = await world(h)
    const chosen = new Visitor(base)
    await chosen.signIn(sam)
    await chosen.go('POST', '/choose', { csrf: chosen.csrf((await chosen.go('GET', '/choose')).text), customerID: w.b })
    assert.is((await chosen.go('GET', '/summary')).status, 200)
    const token = chosen.cookies.get('portal_session')!
    const choosing = new Visitor(base)
    await choosing.signIn(sam)
    const form = await choosing.go('GET', '/choose')
    assert.is(form.status, 200)
    const annSession = new Visitor(base)
    await annSession.signIn(ann)

    assert.is((await h.request('PATCH', `/customerContacts/${w.shared.id}`, { email: null })).status, 200)
    assert.is((await chosen.go('GET', '/summary')).location, '/portal/sign-in', 'chosen: back to sign-in')
    assert.is((await choosing.go('POST', '/choose', { csrf: choosing.csrf(form.text), customerID: w.b })).location, '/portal/sign-in', 'choosing: cannot choose')
    assert.is((await choosing.go('GET', '/choose')).location, '/portal/sign-in')
    assert.is((await annSession.go('GET', '/summary')).status, 200, "another contact's session is untouched")

    // Set back, the address signs in again, but only afresh: the sessions it had are over.
    assert.is((await h.request('PATCH', `/customerContacts/${w.shared.id}`, { email: 'sam@shared.example' })).status, 200)
    const replay = new Visitor(base)
    replay.cookies.set('portal_session', token)
    assert.is((await replay.go('GET', '/summary')).location, '/portal/sign-in')
    assert.is((await new Visitor(base).signIn(sam)).location, '/portal/choose')
  })

  test.run()
}
