import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { H3, toNodeHandler } from 'h3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** A browser without JavaScript, over a real socket: keeps its cookies, follows nothing by itself. */
class Visitor {
  cookies = new Map<string, string>()
  constructor(readonly base: string, readonly headers: Record<string, string> = {}, readonly portal = '/portal') {}
  async go(method: string, path: string, form?: Record<string, string>) {
    const res = await fetch(`${this.base}${this.portal}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...this.headers,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const [k, v] = pair.split('=')
      if (v) this.cookies.set(k, v)
      else this.cookies.delete(k)
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') }
  }
  csrf(html: string) {
    return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  }
  async signIn(fields: Record<string, string>) {
    const page = await this.go('GET', '/sign-in')
    return this.go('POST', '/sign-in', { csrf: this.csrf(page.text), ...fields })
  }
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal sign-in, sessions and pages [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  async function world(h: Harness) {
    const a = await newCustomer(h, { accountNumber: 'ACC-1', companyName: 'Alpha Ltd', portalCustomerProfile: 'Standard Portal', paymentTerms: 14 })
    const b = await newCustomer(h, { accountNumber: 'ACC-2', companyName: 'Beta Ltd', portalCustomerProfile: 'Standard Portal' })
    const none = await newCustomer(h, { accountNumber: 'ACC-3', companyName: 'No Portal Ltd' })
    await newFeature(h, a, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    await newFeature(h, b, { startDate: '2026-01-01', serviceCharge: '40.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    h.clock.set('2026-02-03T09:00:00Z')
    const contact = (await h.request('POST', `/customers/${a}/customerContacts`, { email: 'ann@alpha.example', accountPassword: 'correct horse battery' })).body
    const shared = (await h.request('POST', '/customerContacts', { email: 'sam@shared.example', accountPassword: 'shared secret words' })).body
    for (const c of [a, b, none]) await h.request('POST', `/customers/${c}?action=addSharedContact`, { sharedContactID: shared.id })
    const pin = (await h.request('POST', `/customers/${b}?action=generatePIN`, {})).body.pin
    const noPortalPin = (await h.request('POST', `/customers/${none}?action=generatePIN`, {})).body.pin
    const [invA] = (await h.request('GET', `/customers/${a}/invoices`)).body
    const [invB] = (await h.request('GET', `/customers/${b}/invoices`)).body
    return { a, b, none, contact, shared, pin, noPortalPin, invA, invB }
  }

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
    assert.is(made.status, 200)
    assert.match(made.text, /https:\/\/pay\.example\.com\/card\//)
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

  test('calls not yet invoiced: unbilled ones and those on a carried-forward Call Charges row, with the running total', async ({ h, base }) => {
    const tariff = (await h.request('POST', '/tariffs', { name: 'Portal Mobile', baseRoundSeconds: 60 })).body.id
    for (const timeBand of ['day', 'evening', 'weekend']) await h.request('POST', `/tariffs/${tariff}/tariffDetails`, { chargeBand: 'MOB', timeBand, cost: '0.10', costConnection: '0.02' })
    const c = await newCustomer(h, { accountNumber: 'ACC-9', portalCustomerProfile: 'Standard Portal', defaultMobileTariff: 'Portal Mobile', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 20, lowInvoiceAction: 'Carry Forward' })
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632960001' })).body
    const row = (start: string, seconds: number) => `01632960001,07700900123,${start},${seconds},MOB,mobile,Gamma`
    const upload = async (rows: string[]) => {
      const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    // 0.02 + 0.10 a started minute: 0.12 and 0.22, billed on 31 January but carried forward (below 20.00).
    await upload([row('2026-01-14T10:00:00Z', 50), row('2026-01-14T11:00:00Z', 100)])
    await bill(h, '2026-01-31')
    assert.is((await h.request('GET', `/customers/${c}/invoices`)).body.length, 0)
    assert.ok((await h.request('GET', `/numbers/${number.id}/calls`)).body.every((call: any) => call.transactionID), 'both calls are on a Call Charges row')
    // 0.32, after the cutoff: on no row yet.
    await upload([row('2026-02-02T10:00:00Z', 170)])
    const pin = (await h.request('POST', `/customers/${c}?action=generatePIN`, {})).body.pin
    const v = new Visitor(base)
    await v.signIn({ method: 'pin', accountNumber: 'ACC-9', pin })
    const text = (await v.go('GET', '/calls')).text
    const cells = [...text.matchAll(/<td class="num">([^<]*)<\/td><td class="num">([^<]*)<\/td><\/tr>/g)].map((m) => [m[1], m[2]])
    assert.equal(cells, [['£0.12', '£0.12'], ['£0.22', '£0.34'], ['£0.32', '£0.66']])
    assert.match(text, /Total so far: <strong>£0.66<\/strong>/)
    // 510 more at 0.12: the page lists the first 500 calls, and the total is of all 513.
    await upload(Array.from({ length: 510 }, (_, i) => row(new Date(Date.parse('2026-02-03T00:00:00Z') + i * 60_000).toISOString(), 50)))
    const long = (await v.go('GET', '/calls')).text
    assert.is([...long.matchAll(/<td class="num">[^<]*<\/td><td class="num">[^<]*<\/td><\/tr>/g)].length, 500)
    assert.match(long, /Only the first 500 calls are shown/)
    assert.match(long, /Total so far: <strong>£61.86<\/strong>/)
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

  test('a profile given as {pages, paymentLinks} shows only its pages; the others are 404', async () => {
    const presets = mergePresets({ portalProfiles: { 'Invoices Only': { pages: ['summary', 'invoices'] } } })
    const h2 = await openHarness(target, { now: '2026-01-05T09:00:00Z', presets })
    try {
      const c = await newCustomer(h2, { accountNumber: 'IO-1', companyName: 'Invoices Only Ltd', portalCustomerProfile: 'Invoices Only' })
      const pin = (await h2.request('POST', `/customers/${c}?action=generatePIN`, {})).body.pin
      const v = new Visitor(await h2.listen())
      assert.is((await v.signIn({ method: 'pin', accountNumber: 'IO-1', pin })).location, '/portal/summary')
      const summary = await v.go('GET', '/summary')
      assert.not.match(summary.text, /href="\/portal\/calls"/, 'no link to a page it does not show')
      assert.is((await v.go('GET', '/invoices')).status, 200)
      for (const p of ['/calls', '/allowances', '/payments', '/pay']) assert.is((await v.go('GET', p)).status, 404, p)
      assert.is((await h2.request('POST', `/customers/${c}?action=generatePaymentLinks`, {})).body.links.length, 0)
    } finally {
      await h2.close()
    }
  })

  test('mounted in another app at /billing: links, redirects and cookies carry the mount point', async ({ h }) => {
    const w = await world(h)
    const outer = new H3()
    outer.mount('/billing', h.platform.app)
    const server = createServer(toNodeHandler(outer))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const v = new Visitor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {}, '/billing/portal')
      const form = await v.go('GET', '/sign-in')
      assert.is(form.status, 200)
      assert.match(form.text, /href="\/billing\/portal\/style.css"/)
      assert.match(form.text, /action="\/billing\/portal\/sign-in"/)
      const r = await v.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
      assert.is(r.location, '/billing/portal/summary')
      assert.match(r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!, /Path=\/billing\/portal;/)
      const summary = await v.go('GET', '/summary')
      assert.is(summary.status, 200)
      assert.match(summary.text, /href="\/billing\/portal\/invoices"/)
      assert.not.match(summary.text, /(href|action)="\/portal/, 'no link leaves the mount point')
      assert.is((await v.go('GET', '/invoices')).status, 200)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
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
    assert.is((await h.request('PATCH', `/customerContacts/${w.contact.id}`, { accountPassword: null })).status, 200, 'null still clears it')
  })

  test("a contact's session ends once the contact is unlinked from the customer or deleted", async ({ h, base }) => {
    const w = await world(h)
    const sam = new Visitor(base)
    await sam.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })
    const choose = await sam.go('GET', '/choose')
    await sam.go('POST', '/choose', { csrf: sam.csrf(choose.text), customerID: w.b })
    assert.is((await sam.go('GET', '/summary')).status, 200)
    assert.is((await h.request('POST', `/customers/${w.b}?action=removeSharedContact`, { sharedContactID: w.shared.id })).status, 200)
    const after = await sam.go('GET', '/summary')
    assert.is(after.location, '/portal/sign-in', 'unlinked: back to sign-in')
    assert.not.ok(sam.cookies.has('portal_session'), 'the cookie is cleared')
    const ann = new Visitor(base)
    await ann.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const token = ann.cookies.get('portal_session')!
    assert.is((await ann.go('GET', '/invoices')).status, 200)
    assert.is((await h.request('DELETE', `/customerContacts/${w.contact.id}`)).status, 200)
    assert.is((await ann.go('GET', '/invoices')).location, '/portal/sign-in', 'deleted: back to sign-in')
    const replay = new Visitor(base)
    replay.cookies.set('portal_session', token)
    assert.is((await replay.go('GET', '/summary')).location, '/portal/sign-in', 'the session itself is gone')
    // Still signed in but not yet chosen: a contact deleted meanwhile is sent to sign in, not shown an empty list.
    const again = new Visitor(base)
    await again.signIn({ method: 'password', email: 'sam@shared.example', password: 'shared secret words' })
    assert.is((await h.request('DELETE', `/customerContacts/${w.shared.id}`)).status, 200)
    assert.is((await again.go('GET', '/choose')).location, '/portal/sign-in')
  })

  test('sign-in and /portal/ land on the first page the profile offers, or Pay now when that is all', async () => {
    const presets = mergePresets({ portalProfiles: { 'Invoices Only': { pages: ['invoices'] }, 'Pay Only': { pages: [], paymentLinks: ['cardPayment'] } } })
    const h2 = await openHarness(target, { now: '2026-01-05T09:00:00Z', presets })
    try {
      const base = await h2.listen()
      for (const [profile, account, landing] of [['Invoices Only', 'L-1', '/portal/invoices'], ['Pay Only', 'L-2', '/portal/pay']]) {
        const c = await newCustomer(h2, { accountNumber: account, portalCustomerProfile: profile })
        const pin = (await h2.request('POST', `/customers/${c}?action=generatePIN`, {})).body.pin
        const v = new Visitor(base)
        assert.is((await v.signIn({ method: 'pin', accountNumber: account, pin })).location, landing, profile)
        for (const root of ['', '/']) assert.is((await v.go('GET', root)).location, landing, `${profile}: /portal${root}`)
        assert.is((await v.go('GET', landing.slice('/portal'.length))).status, 200, profile)
        assert.is((await v.go('GET', '/summary')).status, 404, profile)
      }
      assert.is((await new Visitor(base).go('GET', '/')).location, '/portal/sign-in', 'no session: sign in')
    } finally {
      await h2.close()
    }
  })

  test("every /portal answer carries the portal's headers: an oversized form, other methods", async ({ base }) => {
    const tries: [string, RequestInit, number][] = [
      ['/portal/sign-in', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'x'.repeat(20_000)}` }, 413],
      ['/portal/summary', { method: 'PUT' }, 404],
      ['/portal/sign-in', { method: 'DELETE' }, 404],
      ['/portal', { method: 'PATCH' }, 404],
    ]
    for (const [path, init, status] of tries) {
      const r = await fetch(`${base}${path}`, { ...init, redirect: 'manual' })
      const label = `${init.method} ${path}`
      assert.is(r.status, status, label)
      const csp = r.headers.get('content-security-policy')
      assert.ok(csp, label)
      assert.match(csp!, /default-src 'none'/, label)
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/, label)
      assert.ok(r.headers.get('x-request-id'), label)
      assert.not.match(await r.text(), /error_code/, label)
    }
  })

  test('the invoices page follows onlineBillType; the documents it does not offer answer 404', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    await v.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const id = w.invA.id
    const number = w.invA.invoiceNumber
    const offers = async () => {
      const list = (await v.go('GET', '/invoices')).text
      const status = async (p: string) => (await v.go('GET', `/invoices/${id}${p}`)).status
      return {
        listed: list.includes(number),
        html: [list.includes(`/invoices/${id}"`), await status('')],
        pdf: [list.includes(`/invoices/${id}/pdf"`), await status('/pdf')],
        csv: [list.includes(`/invoices/${id}/csv"`), await status('/csv')],
        list,
      }
    }
    const cases: [string | null, string | null, boolean, boolean, boolean][] = [
      // onlineBillType, consent, listed, HTML and PDF, calls CSV
      ['None', null, false, false, false],
      ['Summary Only', null, true, false, false],
      ['PDF', 'Yes', true, true, false],
      ['CSV', null, true, false, true],
      ['PDF + CSV', null, true, true, true],
      [null, null, true, true, false],
      [null, 'Yes', true, true, true],
    ]
    for (const [type, consent, listed, documents, csv] of cases) {
      const label = `${type} / consent ${consent}`
      assert.is((await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: type, GDPRPECRConsentGiven: consent })).status, 200, label)
      const o = await offers()
      assert.is(o.listed, listed, label)
      assert.equal(o.html, [documents, documents ? 200 : 404], `${label}: HTML`)
      assert.equal(o.pdf, [documents, documents ? 200 : 404], `${label}: PDF`)
      assert.equal(o.csv, [csv, csv ? 200 : 404], `${label}: CSV`)
      if (!listed) assert.match(o.list, /not shown here/, label)
      if (listed) assert.match(o.list, /£100\.00|£120\.00/, label)
    }
    await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: 'CSV' })
    const csv = await v.go('GET', `/invoices/${id}/csv`)
    assert.match(csv.headers.get('content-type')!, /^text\/csv/)
    assert.match(csv.headers.get('content-disposition')!, /attachment; filename="invoice-\d+-calls\.csv"/)
    assert.match(csv.text, /^startTime,number,dialledNumber/)
    assert.is((await v.go('GET', `/invoices/${w.invB.id}/csv`)).status, 404, "another customer's invoice")
    await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: 'None' })
    assert.match((await v.go('GET', '/summary')).text, /Last invoice<\/dt><dd>Not shown here/)
  })

  test.run()
}
