import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/**
 * Sign-in compares logins trimmed and NFC on both sides, an email also lower-cased whole
 * (contract 14.3, core/portal/portal-login.ts `loginKey`): a login stored with spaces around
 * it, in another case or in NFD signs in, and failures count under that same key however the
 * login is typed. What is stored, and what GET answers, stays as written.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sign-in by login keys [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const password = 'correct horse battery'
  const nfd = 'Cafe\u0301'
  const nfc = 'Caf\u00e9'

  /** Two portal customers with awkward account numbers and PINs, and two contacts with awkward emails. */
  async function logins(h: Harness) {
    const spaced = await newCustomer(h, { accountNumber: 'ACC-7 ', companyName: 'Space Ltd', portalCustomerProfile: 'Standard Portal' })
    const cafe = await newCustomer(h, { accountNumber: nfd, companyName: 'NFD Ltd', portalCustomerProfile: 'Standard Portal' })
    const pin = async (id: string) => (await h.request('POST', `/customers/${id}?action=generatePIN`, {})).body.pin as string
    const ann = (await h.request('POST', `/customers/${spaced}/customerContacts`, { email: 'Ann@Space.example', accountPassword: password })).body
    const bob = (await h.request('POST', `/customers/${spaced}/customerContacts`, { email: ' bob@space.example', accountPassword: password })).body
    return { spaced, cafe, spacedPin: await pin(spaced), cafePin: await pin(cafe), ann, bob }
  }
  const signIn = (base: string, fields: Record<string, string>) => new Visitor(base).signIn(fields)

  test('an account number stored with a trailing space, or in NFD, signs in with its PIN however it is typed; GET answers it as stored', async ({ h, base }) => {
    const w = await logins(h)
    for (const typed of ['ACC-7 ', 'ACC-7', '  ACC-7']) {
      const r = await signIn(base, { method: 'pin', accountNumber: typed, pin: w.spacedPin })
      assert.is(r.location, '/portal/summary', JSON.stringify(typed))
    }
    for (const typed of [nfc, nfd, ` ${nfc} `]) {
      const v = new Visitor(base)
      assert.is((await v.signIn({ method: 'pin', accountNumber: typed, pin: w.cafePin })).location, '/portal/summary', JSON.stringify(typed))
      assert.match((await v.go('GET', '/summary')).text, /NFD Ltd/)
    }
    assert.is((await signIn(base, { method: 'pin', accountNumber: 'acc-7', pin: w.spacedPin })).status, 401, 'an account number keeps its case')
    assert.is((await signIn(base, { method: 'pin', accountNumber: 'ACC-7', pin: w.cafePin })).status, 401, "another customer's PIN")
    assert.is((await h.request('GET', `/customers/${w.spaced}`)).body.accountNumber, 'ACC-7 ')
    assert.is((await h.request('GET', `/customers/${w.cafe}`)).body.accountNumber, nfd)
    assert.is((await h.request('GET', `/customers?accountNumber=${encodeURIComponent('ACC-7 ')}`)).body.length, 1, 'the filter is still by the number as stored')
  })

  test('an email stored in another case or with a leading space signs in however it is typed; a changed email signs in by its new key only', async ({ h, base }) => {
    const w = await logins(h)
    for (const email of ['Ann@Space.example', 'ann@space.example', ' ANN@SPACE.EXAMPLE ']) {
      assert.is((await signIn(base, { method: 'password', email, password })).location, '/portal/summary', email)
    }
    for (const email of [' bob@space.example', 'bob@space.example', 'Bob@Space.Example']) {
      assert.is((await signIn(base, { method: 'password', email, password })).location, '/portal/summary', email)
    }
    assert.is((await h.request('GET', `/customerContacts/${w.ann.id}`)).body.email, 'Ann@Space.example')
    assert.is((await h.request('GET', `/customerContacts/${w.bob.id}`)).body.email, ' bob@space.example')
    assert.not.ok('emailKey' in (await h.request('GET', `/customerContacts/${w.ann.id}`)).body, 'the key is not on the wire')

    assert.is((await h.request('PATCH', `/customerContacts/${w.ann.id}`, { email: `  Zoe.${nfd}@Space.example` })).status, 200)
    assert.is((await signIn(base, { method: 'password', email: 'ann@space.example', password })).status, 401, 'the old address signs nobody in')
    assert.is((await signIn(base, { method: 'password', email: `zoe.${nfc}@space.example`, password })).location, '/portal/summary')
    assert.is((await h.request('PATCH', `/customerContacts/${w.ann.id}`, { email: null })).status, 200)
    assert.is((await signIn(base, { method: 'password', email: `zoe.${nfc}@space.example`, password })).status, 401, 'a cleared email signs nobody in')
  })

  test('wrong PINs and passwords typed in other forms count towards one lock: the login keyed as sign-in finds it', async ({ h, base }) => {
    const w = await logins(h)
    const wrongPins = ['ACC-7', 'ACC-7 ', ' ACC-7', 'ACC-7  ', 'ACC-7']
    for (const accountNumber of wrongPins) {
      assert.is((await signIn(base, { method: 'pin', accountNumber, pin: '000000' })).status, 401)
      h.clock.advanceMs(60_000)
    }
    assert.is((await signIn(base, { method: 'pin', accountNumber: 'ACC-7 ', pin: w.spacedPin })).status, 401, 'locked, typed as stored')
    assert.is((await signIn(base, { method: 'pin', accountNumber: nfc, pin: w.cafePin })).location, '/portal/summary', 'another login is not locked')
    for (const accountNumber of [nfc, nfd, ` ${nfd}`, `${nfc} `, nfd]) await signIn(base, { method: 'pin', accountNumber, pin: '000000' })
    assert.is((await signIn(base, { method: 'pin', accountNumber: nfc, pin: w.cafePin })).status, 401, 'NFC and NFD typed: one lock')

    for (const email of ['ANN@space.example', ' ann@SPACE.example', 'Ann@Space.example', 'ann@space.example ', 'aNN@space.EXAMPLE']) {
      assert.is((await signIn(base, { method: 'password', email, password: 'wrong' })).status, 401)
    }
    assert.is((await signIn(base, { method: 'password', email: 'Ann@Space.example', password })).status, 401, 'locked, typed as stored')
    assert.is((await signIn(base, { method: 'password', email: 'bob@space.example', password })).location, '/portal/summary', 'another contact is not locked')

    h.clock.advanceMs(16 * 60_000)
    assert.is((await signIn(base, { method: 'pin', accountNumber: 'ACC-7', pin: w.spacedPin })).location, '/portal/summary', 'open again after 15 minutes')
    assert.is((await signIn(base, { method: 'password', email: 'ann@space.example', password })).location, '/portal/summary', 'open again after 15 minutes')
  })

  test.run()
}
