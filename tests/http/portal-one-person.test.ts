import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * One person, a direct contact of two customers with the same email and password (contract 14.3:
 * "one associated with several customers chooses the account after signing in"): the sign-in
 * reaches both, and the session acts as the chosen customer's own contact.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal: one person, a contact of several customers [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const book = { method: 'password', email: 'book@keeper.example', password: 'same pass phrase' }
  const accounts = (html: string) => [...html.matchAll(/Account ([^ <]+) · ([^<]+)<\/button>/g)].map((m) => m[1])
  const choose = async (v: Visitor, customerID: string) => v.go('POST', '/choose', { csrf: v.csrf((await v.go('GET', '/choose')).text), customerID })

  test('the same email and password on a direct contact of each customer reach both: it chooses, and acts as that customer\'s contact', async ({ h, base }) => {
    const w = await world(h)
    const ca = (await h.request('POST', `/customers/${w.a}/customerContacts`, { email: 'book@keeper.example', accountPassword: 'same pass phrase' })).body
    const cb = (await h.request('POST', `/customers/${w.b}/customerContacts`, { email: 'Book@Keeper.example', accountPassword: 'same pass phrase' })).body
    // Another contact of the address, on Alpha, with another password: that password signs in to Alpha alone.
    const other = (await h.request('POST', `/customers/${w.a}/customerContacts`, { email: 'book@keeper.example', accountPassword: 'another pass phrase' })).body
    assert.is((await new Visitor(base).signIn({ ...book, password: 'another pass phrase' })).location, '/portal/summary')

    const v = new Visitor(base)
    const r = await v.signIn(book)
    assert.is(r.status, 303)
    assert.is(r.location, '/portal/choose')
    assert.equal(accounts((await v.go('GET', '/choose')).text), ['ACC-1', 'ACC-2'])
    const history = async (customerID: string, action: string) =>
      (await h.request('GET', `/customers/${customerID}/history`)).body.filter((e: any) => e.action === action).map((e: any) => e.apiKeyName)
    assert.equal((await history(w.a, 'portalSignIn')).sort(), [`portal:${ca.id}`, `portal:${other.id}`].sort())
    assert.equal(await history(w.b, 'portalSignIn'), [`portal:${cb.id}`])

    // Beta: what the portal changes is the history of Beta's own contact.
    assert.is((await choose(v, w.b)).location, '/portal/summary')
    assert.match((await v.go('GET', '/summary')).text, /Account <strong>ACC-2<\/strong> · Beta Ltd/)
    const pay = await v.go('GET', '/pay')
    assert.is((await v.go('POST', '/pay', { csrf: v.csrf(pay.text) })).status, 303)
    assert.equal(await history(w.b, 'generatePaymentLinks'), [`portal:${cb.id}`])
    // Then Alpha, from the same session.
    assert.is((await choose(v, w.a)).location, '/portal/summary')
    assert.match((await v.go('GET', '/summary')).text, /Account <strong>ACC-1<\/strong> · Alpha Ltd/)
    const payA = await v.go('GET', '/pay')
    assert.is((await v.go('POST', '/pay', { csrf: v.csrf(payA.text) })).status, 303)
    assert.equal(await history(w.a, 'generatePaymentLinks'), [`portal:${ca.id}`])

    // The session holds for each customer while that customer's contact signs in as it did.
    const onBeta = new Visitor(base)
    await onBeta.signIn(book)
    await choose(onBeta, w.b)
    assert.is((await h.request('PATCH', `/customerContacts/${cb.id}`, { accountPassword: 'a new pass phrase' })).status, 200)
    assert.is((await onBeta.go('GET', '/summary')).location, '/portal/sign-in', "Beta's contact changed its password: the session on Beta is over")
    assert.is((await v.go('GET', '/summary')).status, 200, "on Alpha, as Alpha's contact: it goes on")
    assert.equal(accounts((await v.go('GET', '/choose')).text), ['ACC-1'], 'Beta is no longer offered')
    assert.is((await choose(v, w.b)).location, '/portal/choose', 'nor chosen')
    assert.is((await h.request('PATCH', `/customerContacts/${ca.id}`, { email: 'keeper@alpha.example' })).status, 200)
    assert.is((await v.go('GET', '/summary')).location, '/portal/sign-in', "Alpha's contact changed its email: over too")

    // Now one contact of the address has the password: it signs in to its one customer.
    const again = new Visitor(base)
    assert.is((await again.signIn({ ...book, password: 'a new pass phrase' })).location, '/portal/summary')
    assert.match((await again.go('GET', '/summary')).text, /Beta Ltd/)
  })

  test('wrong, unknown and locked logins answer as before: one page, and the lock holds for every contact of the address', async ({ h, base }) => {
    const w = await world(h)
    for (const c of [w.a, w.b]) await h.request('POST', `/customers/${c}/customerContacts`, { email: 'book@keeper.example', accountPassword: 'same pass phrase' })
    const page = (r: { text: string }) => r.text.replace(/value="[^"]{20,}"/g, '').replace(/book@keeper\.example|nobody@x\.example/, '')
    const wrong = await new Visitor(base).signIn({ ...book, password: 'wrong' })
    assert.is(wrong.status, 401)
    assert.is(page(await new Visitor(base).signIn({ method: 'password', email: 'nobody@x.example', password: 'x' })), page(wrong), 'an unknown login')
    for (let i = 0; i < 4; i++) await new Visitor(base).signIn({ ...book, password: 'wrong' })
    const locked = await new Visitor(base).signIn(book)
    assert.is(locked.status, 401, 'locked: the right password is refused')
    assert.is(page(locked), page(wrong))
    h.clock.advanceMs(16 * 60_000)
    assert.is((await new Visitor(base).signIn(book)).location, '/portal/choose')
  })

  test.run()
}
