import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { H3, toNodeHandler } from 'h3'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { bill, newCustomer } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { worldOn } from '../support/invoice-documents.js'
import { pdfLines } from '../support/pdf-text.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** What the portal's pages show and where it answers (contract 14.2-14.3): profiles, landing, headers, bill types, a mount point. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal pages [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

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

  test('a profile given as {pages, paymentLinks} shows only its pages; the others are 404, as those loginFlags take away', async () => {
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
      // loginFlags ['Invoices'] on a profile of every page: no calls or allowances, answered exactly as above.
      const f = await newCustomer(h2, { accountNumber: 'LF-1', portalCustomerProfile: 'Standard Portal', loginFlags: ['Invoices'] })
      const flagged = new Visitor(v.base)
      await flagged.signIn({ method: 'pin', accountNumber: 'LF-1', pin: (await h2.request('POST', `/customers/${f}?action=generatePIN`, {})).body.pin })
      const answer = (r: Awaited<ReturnType<Visitor['go']>>) => [r.status, r.text, r.headers.get('content-type'), r.headers.get('content-security-policy')]
      for (const p of ['/calls', '/allowances']) assert.equal(answer(await flagged.go('GET', p)), answer(await v.go('GET', p)), p)
      const nav = /<nav[^]*<\/nav>/.exec((await flagged.go('GET', '/summary')).text)![0]
      assert.equal([...nav.matchAll(/href="\/portal\/([a-z]+)"/g)].map((m) => m[1]), ['summary', 'invoices', 'payments'])
      for (const p of ['/invoices', '/payments']) assert.is((await flagged.go('GET', p)).status, 200, p)
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
      // No itemised calls without consent, whatever the type (contract 14.2), as in an email.
      ['CSV', null, true, false, false],
      ['PDF + CSV', null, true, true, false],
      ['CSV', 'Yes', true, false, true],
      ['PDF + CSV', 'Yes', true, true, true],
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
    await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: 'CSV', GDPRPECRConsentGiven: 'Yes' })
    const csv = await v.go('GET', `/invoices/${id}/csv`)
    assert.match(csv.headers.get('content-type')!, /^text\/csv/)
    assert.match(csv.headers.get('content-disposition')!, /attachment; filename="invoice-\d+-calls\.csv"/)
    assert.match(csv.text, /^startTime,number,dialledNumber/)
    assert.is((await v.go('GET', `/invoices/${w.invB.id}/csv`)).status, 404, "another customer's invoice")
    await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: 'None' })
    assert.match((await v.go('GET', '/summary')).text, /Last invoice<\/dt><dd>Not shown here/)
  })

  test('without GDPR/PECR consent the HTML and PDF documents leave out the itemised calls, as an email does; with it they show them', async ({ h, base }) => {
    const { customerID, invoice } = await worldOn(h, { numbers: 1, calls: 3, accountNumber: 'GDPR-1', customer: { portalCustomerProfile: 'Standard Portal' } })
    h.clock.set('2026-02-10T09:00:00Z')
    const pin = (await h.request('POST', `/customers/${customerID}?action=generatePIN`, {})).body.pin
    const v = new Visitor(base)
    await v.signIn({ method: 'pin', accountNumber: 'GDPR-1', pin })
    const documents = async () => {
      const html = await v.go('GET', `/invoices/${invoice.id}`)
      const pdf = await fetch(`${base}/portal/invoices/${invoice.id}/pdf`, { headers: { cookie: `portal_session=${v.cookies.get('portal_session')}` } })
      assert.equal([html.status, pdf.status], [200, 200])
      return { html: html.text, pdf: (await pdfLines(new Uint8Array(await pdf.arrayBuffer()))).flat().join('\n') }
    }
    // The world's first call is to 01632 960 000; its calls by number and type are totals, not itemisation.
    for (const consent of [null, 'No']) {
      assert.is((await h.request('PATCH', `/customers/${customerID}`, { GDPRPECRConsentGiven: consent })).status, 200)
      const { html, pdf } = await documents()
      assert.not.match(html, /data-page="Itemised Calls"/, `consent ${consent}: HTML`)
      assert.not.match(html, /01632 960 000/, `consent ${consent}: HTML`)
      assert.match(html, /data-page="Calls by Number"/)
      assert.not.match(pdf, /Itemised Calls|01632 960 000/, `consent ${consent}: PDF`)
      assert.match(pdf, /Calls by Number/)
    }
    await h.request('PATCH', `/customers/${customerID}`, { GDPRPECRConsentGiven: 'Yes' })
    const { html, pdf } = await documents()
    assert.match(html, /data-page="Itemised Calls"/)
    assert.match(html, /01632 960 000/)
    assert.match(pdf, /Itemised Calls/)
    assert.match(pdf, /01632 960 000/)
  })

  test.run()
}
