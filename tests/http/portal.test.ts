import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** Signing in to the portal, its sessions, and who may use them (contract 14.3). The pages: portal-pages.test.ts. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sign-in, sessions and pages [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('sign in by email and password: cookie flags, CSP, pages, only its own invoices; sign out', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    const r = await v.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    assert.is(r.status, 303, r.text)
    assert.is(r.location, '/portal/summary')
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!
    assert.match(cookie, /HttpOnly/)
    assert.match(cookie, /SameSite=Lax/)
    assert.not.match(cookie, /Secure/, 'plain HTTP without a public https URL')
    const token = cookie.split(';')[0].split('=')[1]
    assert.ok(Buffer.from(token, 'base64url').length >= 16, 'at least 128 bits')
    const summary = await v.go('GET', '/summary')
    assert.is(summary.status, 200)
    const csp = summary.headers.get('content-security-policy')!
    assert.match(csp, /default-src 'none'/)
    assert.not.match(csp, /https?:/, 'no outside origin')
    assert.match(summary.text, /Alpha Ltd/)
    assert.match(summary.text, /£100\.00/)
    for (const p of ['/invoices', '/calls', '/allowances', '/payments', '/pay']) assert.is((await v.go('GET', p)).status, 200, p)
    assert.is((await v.go('GET', `/invoices/${w.invA.id}`)).status, 200)
    const pdf = await v.go('GET', `/invoices/${w.invA.id}/pdf`)
    assert.equal([pdf.status, pdf.headers.get('content-type')], [200, 'application/pdf'])
    for (const p of [`/invoices/${w.invB.id}`, `/invoices/${w.invB.id}/pdf`, '/invoices/999999', '/invoices/abc', '/nope']) {
      assert.is((await v.go('GET', p)).status, 404, p)
    }
    const history = (await h.request('GET', `/customers/${w.a}/history`)).body
    assert.ok(history.some((e: any) => e.action === 'portalSignIn' && e.apiKeyName === `portal:${w.contact.id}`))
    // Sign-out needs the CSRF token; then the session is over.
    assert.is((await v.go('POST', '/sign-out', { csrf: 'wrong' })).location, '/portal/summary')
    assert.is((await v.go('GET', '/summary')).status, 200)
    const out = await v.go('POST', '/sign-out', { csrf: v.csrf(summary.text) })
    assert.is(out.location, '/portal/sign-in')
    const stolen = new Visitor(base)
    stolen.cookies.set('portal_session', token)
    assert.is((await stolen.go('GET', '/summary')).location, '/portal/sign-in', 'the old token is dead')
  })

  test('sign in by account number and PIN; only customers with a portal profile', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    assert.is((await v.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })).location, '/portal/summary')
    assert.match((await v.go('GET', '/summary')).text, /Beta Ltd/)
    assert.ok((await h.request('GET', `/customers/${w.b}/history`)).body.some((e: any) => e.action === 'portalSignIn' && e.apiKeyName === 'portal:pin'))
    const refused = await new Visitor(base).signIn({ method: 'pin', accountNumber: 'ACC-3', pin: w.noPortalPin })
    assert.is(refused.status, 401)
  })

  test('a shared contact of several customers chooses the account; CSRF refused without the token', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    assert.is((await v.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })).location, '/portal/choose')
    assert.is((await v.go('GET', '/summary')).location, '/portal/choose')
    const choose = await v.go('GET', '/choose')
    assert.match(choose.text, /Alpha Ltd/)
    assert.match(choose.text, /Beta Ltd/)
    assert.not.match(choose.text, /No Portal Ltd/)
    assert.is((await v.go('POST', '/choose', { csrf: v.csrf(choose.text), customerID: w.none })).location, '/portal/choose', 'not one of its accounts')
    assert.is((await v.go('POST', '/choose', { customerID: w.b })).location, '/portal/choose', 'no CSRF token')
    assert.is((await v.go('POST', '/choose', { csrf: v.csrf(choose.text), customerID: w.b })).location, '/portal/summary')
    assert.match((await v.go('GET', '/summary')).text, /Beta Ltd/)
    const pay = await v.go('GET', '/pay')
    assert.is((await v.go('POST', '/pay', { csrf: 'forged' })).status, 403)
    assert.is((await h.request('GET', `/customers/${w.b}/paymentLinks`)).body.length, 0, 'nothing made by a forged form')
    const made = await v.go('POST', '/pay', { csrf: v.csrf(pay.text) })
    assert.is(made.status, 303)
    assert.match((await v.go('GET', made.location!.slice('/portal'.length))).text, /https:\/\/pay\.example\.com\/card\//)
    const [link] = (await h.request('GET', `/customers/${w.b}/paymentLinks`)).body
    assert.is(link.amount, 40)
    assert.ok((await h.request('GET', `/customers/${w.b}/history`)).body.some((e: any) => e.action === 'generatePaymentLinks' && e.apiKeyName === `portal:${w.shared.id}`))
    // The sign-in form itself needs its token too.
    assert.is((await v.go('POST', '/sign-in', { method: 'pin', accountNumber: 'ACC-2', pin: w.pin })).status, 403)
  })

  test('5 failures in 15 minutes lock the login for 15 minutes, answering exactly like a wrong password', async ({ h, base }) => {
    await world(h)
    const wrong = () => new Visitor(base).signIn({ method: 'password', email: 'ann@alpha.example', password: 'wrong' })
    const right = () => new Visitor(base).signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const first = await wrong()
    assert.is(first.status, 401)
    const body = first.text.replace(/value="[^"]{20,}"/g, '')
    for (let i = 0; i < 4; i++) {
      h.clock.advanceMs(60_000)
      await wrong()
    }
    const locked = await right()
    assert.is(locked.status, 401, 'locked: the right password is refused')
    assert.is(locked.text.replace(/value="[^"]{20,}"/g, ''), body, 'the same page as a wrong password')
    assert.is((await new Visitor(base).signIn({ method: 'password', email: 'nobody@x.example', password: 'x' })).text.replace(/value="[^"]{20,}"/g, '').replace('nobody@x.example', 'ann@alpha.example'), body, 'and as an unknown login')
    h.clock.advanceMs(14 * 60_000)
    assert.is((await right()).status, 401, 'still locked after 14 minutes')
    h.clock.advanceMs(61_000)
    assert.is((await right()).status, 303, 'open again 15 minutes after the lock')
    assert.ok((await h.request('GET', '/history?limit=1000')).body.some((e: any) => e.action === 'portalSignInFailed'))
    // 30 guesses at once: each counts those before it, so only 5 are checked (and stored as
    // failures), whatever their timing; the rest are refused as locked.
    const burst = await Promise.all(Array.from({ length: 30 }, () => wrong()))
    assert.ok(burst.every((r) => r.status === 401))
    assert.is((await right()).status, 401, 'locked again')
    h.clock.advanceMs(31 * 60_000)
    const ends: { result?: any }[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => ends.push(e) })
    await scheduler.runNow('portal-sweep')
    await scheduler.stop()
    assert.is(ends[0]?.result?.failures, 11, "the 5 failures before the lock, the unknown login's, and 5 of the 30 guesses")
  })

  test('a session ends after 30 minutes idle; activity keeps it alive', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    await v.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    h.clock.advanceMs(29 * 60_000)
    assert.is((await v.go('GET', '/summary')).status, 200)
    h.clock.advanceMs(29 * 60_000)
    assert.is((await v.go('GET', '/summary')).status, 200, 'idle time counts from the last request')
    h.clock.advanceMs(30 * 60_000)
    assert.is((await v.go('GET', '/summary')).location, '/portal/sign-in')
  })

  test('the portal-sweep job ends sessions idle 30 minutes and forgets failures too old to lock a login', async ({ h, base }) => {
    const w = await world(h)
    await new Visitor(base).signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    assert.is((await new Visitor(base).signIn({ method: 'pin', accountNumber: 'ACC-1', pin: '000000' })).status, 401)
    const sweep = async () => {
      const ends: { result?: unknown }[] = []
      const scheduler = h.platform.createScheduler({ onJobEnd: (e) => ends.push(e) })
      await scheduler.runNow('portal-sweep')
      await scheduler.stop()
      return ends[0]?.result
    }
    h.clock.advanceMs(15 * 60_000)
    const later = new Visitor(base)
    await later.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    h.clock.advanceMs(14 * 60_000)
    assert.equal(await sweep(), { sessions: 0, failures: 0 }, 'nothing is 30 minutes old yet')
    h.clock.advanceMs(2 * 60_000)
    assert.equal(await sweep(), { sessions: 1, failures: 1 }, 'the first session, idle 31 minutes, and the failure, which can no longer lock')
    assert.is((await later.go('GET', '/summary')).status, 200, 'the later session is kept')
  })

  test('Secure cookies behind HTTPS: a trusted proxy header', async () => {
    const h2 = await openHarness(target, { now: '2026-01-05T09:00:00Z', config: { trustProxy: true } })
    try {
      const w = await world(h2)
      const base = await h2.listen()
      const behind = new Visitor(base, { 'x-forwarded-proto': 'https' })
      const r = await behind.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
      assert.match(r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!, /; Secure/)
    } finally {
      await h2.close()
    }
  })

  test('an empty accountPassword is refused (400101) on create and update; an empty secret never signs in', async ({ h, base }) => {
    const w = await world(h)
    const created = await h.request('POST', `/customers/${w.a}/customerContacts`, { email: 'empty@alpha.example', accountPassword: '' })
    assert.equal([created.status, created.body.error_code], [400, 400101])
    const updated = await h.request('PATCH', `/customerContacts/${w.contact.id}`, { accountPassword: '' })
    assert.equal([updated.status, updated.body.error_code], [400, 400101])
    assert.is((await new Visitor(base).signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })).status, 303, 'the password is unchanged')
    // A hash of "" stored before the field refused it still signs nobody in, and the answer is a wrong password's.
    const { store, passwords } = h.platform.context
    await store.contacts.update(w.contact.id, { accountPassword: await passwords.hash('') })
    const wrong = await new Visitor(base).signIn({ method: 'password', email: 'ann@alpha.example', password: 'not it' })
    const empty = await new Visitor(base).signIn({ method: 'password', email: 'ann@alpha.example', password: '' })
    assert.is(empty.status, 401)
    assert.is(empty.text.replace(/value="[^"]{20,}"/g, ''), wrong.text.replace(/value="[^"]{20,}"/g, ''))
    assert.is((await new Visitor(base).signIn({ method: 'pin', accountNumber: 'ACC-2', pin: '' })).status, 401)
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { accountPassword: null })).status, 200, 'null is accepted, as GET shows it (and changes nothing)')
  })

  test("a contact's session ends once its password is changed, or the contact is unlinked from the customer or deleted", async ({ h, base }) => {
    const w = await world(h)
    // A new password ends every session signed in with the old one, wherever it was set from.
    let password = 'correct horse battery'
    const signInAnn = (v: Visitor) => v.signIn({ method: 'password', email: 'ann@alpha.example', password })
    const phone = new Visitor(base)
    const laptop = new Visitor(base)
    for (const v of [phone, laptop]) assert.is((await signInAnn(v)).location, '/portal/summary')
    assert.is((await phone.go('GET', '/summary')).status, 200)
    const sam = new Visitor(base)
    await sam.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })
    assert.is((await sam.go('GET', '/choose')).status, 200, 'signed in, choosing')
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { firstnames: 'Ann' })).status, 200)
    assert.is((await laptop.go('GET', '/summary')).status, 200, 'a change of anything else ends nothing')
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { accountPassword: 'a brand new passphrase' })).status, 200)
    for (const [name, v] of [['phone', phone], ['laptop', laptop]] as const) {
      assert.is((await v.go('GET', '/invoices')).location, '/portal/sign-in', `${name}: back to sign-in`)
      assert.not.ok(v.cookies.has('portal_session'), `${name}: the cookie is cleared`)
    }
    assert.is((await signInAnn(new Visitor(base))).status, 401, 'the old password signs nobody in')
    password = 'a brand new passphrase'
    const again = new Visitor(base)
    assert.is((await signInAnn(again)).location, '/portal/summary')
    assert.is((await again.go('GET', '/summary')).status, 200, 'a session of the new password works')
    assert.is((await sam.go('GET', '/choose')).status, 200, "another contact's session is untouched")
    // The same password set again is a change too (a new salt): sessions before it end.
    assert.is((await h.request('PATCH', `/customerContacts/${w.shared.id}`, { accountPassword: 'shared secret words' })).status, 200)
    assert.is((await sam.go('GET', '/choose')).location, '/portal/sign-in', 'choosing: back to sign-in')
    assert.is((await sam.go('POST', '/choose', { customerID: w.b })).location, '/portal/sign-in')
    await sam.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })
    const choose = await sam.go('GET', '/choose')
    await sam.go('POST', '/choose', { csrf: sam.csrf(choose.text), customerID: w.b })
    assert.is((await sam.go('GET', '/summary')).status, 200)
    assert.is((await h.request('POST', `/customers/${w.b}?action=removeSharedContact`, { sharedContactID: w.shared.id })).status, 200)
    const after = await sam.go('GET', '/summary')
    assert.is(after.location, '/portal/sign-in', 'unlinked: back to sign-in')
    assert.not.ok(sam.cookies.has('portal_session'), 'the cookie is cleared')
    const token = again.cookies.get('portal_session')!
    assert.is((await again.go('GET', '/invoices')).status, 200)
    assert.is((await h.request('DELETE', `/customerContacts/${w.contact.id}`)).status, 200)
    assert.is((await again.go('GET', '/invoices')).location, '/portal/sign-in', 'deleted: back to sign-in')
    const replay = new Visitor(base)
    replay.cookies.set('portal_session', token)
    assert.is((await replay.go('GET', '/summary')).location, '/portal/sign-in', 'the session itself is gone')
    // Still signed in but not yet chosen: a contact deleted meanwhile is sent to sign in, not shown an empty list.
    const choosing = new Visitor(base)
    await choosing.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })
    assert.is((await h.request('DELETE', `/customerContacts/${w.shared.id}`)).status, 200)
    assert.is((await choosing.go('GET', '/choose')).location, '/portal/sign-in')
  })

  test.run()
}
