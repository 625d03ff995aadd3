import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { worldOn } from '../support/invoice-documents.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** The legacy stats site's flags in the portal (core/portal/login-flags.ts): a customer's loginFlags, a number's loginFlagsAllow / loginFlagsDeny. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal login flags [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  test("a customer's loginFlags keep the pages they name of its profile's, and summary, payments and Pay now; unset or empty: every page", async ({ h, base }) => {
    const w = await world(h)
    await h.request('PATCH', `/customers/${w.a}`, { onlineBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'Yes' })
    const v = new Visitor(base)
    await v.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const id = w.invA.id
    const paths = ['/summary', '/invoices', `/invoices/${id}`, `/invoices/${id}/pdf`, `/invoices/${id}/csv`, '/calls', '/allowances', '/payments', '/pay']
    const seen = async (flags: string[] | null) => {
      assert.is((await h.request('PATCH', `/customers/${w.a}`, { loginFlags: flags })).status, 200, String(flags))
      const shown = []
      for (const p of paths) if ((await v.go('GET', p)).status === 200) shown.push(p)
      const summary = (await v.go('GET', '/summary')).text
      const nav = [.../<nav[^]*<\/nav>/.exec(summary)![0].matchAll(/href="\/portal\/([a-z]+)"/g)].map((m) => m[1])
      const invoices = (await v.go('GET', '/invoices')).text
      return { shown, nav, documentLink: summary.includes(`/invoices/${id}"`), csvLink: invoices.includes(`/invoices/${id}/csv"`) }
    }
    const every = { shown: paths, nav: ['summary', 'invoices', 'calls', 'allowances', 'payments', 'pay'], documentLink: true, csvLink: true }
    assert.equal(await seen(null), every, 'unset')
    assert.equal(await seen([]), every, 'empty')
    assert.equal(await seen(['Invoices', 'Call Statistics']), every, 'both')
    assert.equal(
      await seen(['Call Statistics']),
      { shown: ['/summary', '/calls', '/allowances', '/payments', '/pay'], nav: ['summary', 'calls', 'allowances', 'payments', 'pay'], documentLink: false, csvLink: false },
      'no invoices page, documents or CSV',
    )
    assert.equal(
      await seen(['Invoices']),
      { shown: ['/summary', '/invoices', `/invoices/${id}`, `/invoices/${id}/pdf`, '/payments', '/pay'], nav: ['summary', 'invoices', 'payments', 'pay'], documentLink: true, csvLink: false },
      'no calls, allowances or calls CSV',
    )
    const none = { shown: ['/summary', '/payments', '/pay'], nav: ['summary', 'payments', 'pay'], documentLink: false, csvLink: false }
    assert.equal(await seen(['Numbers', 'Usage Alerts']), none, 'flags of no page yet')
  })

  test("a number's Call Statistics flags hide its calls from the calls page, its running total and the calls CSV; the document keeps them", async ({ h, base }) => {
    const { customerID, numberIDs, invoice } = await worldOn(h, { numbers: 5, calls: 10, accountNumber: 'LF-N', customer: { portalCustomerProfile: 'Standard Portal', onlineBillType: 'PDF + CSV', GDPRPECRConsentGiven: 'Yes' } })
    const numbers: string[] = []
    for (const n of numberIDs) numbers.push((await h.request('GET', `/numbers/${n}`)).body.number)
    // February, not yet invoiced: 0.01 + 0.09 a minute, 1 to 5 minutes by number.
    const rows = numbers.map((n, i) => `${n.replace(/\s/g, '')},07700900123,2026-02-0${i + 1}T10:00:00Z,${60 * (i + 1)},MOB,mobile,Gamma`)
    const upload = await h.request('POST', '/usageFiles?name=february.csv', undefined, { raw: ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
    assert.is(upload.status, 201, JSON.stringify(upload.body))
    const v = new Visitor(base)
    await v.signIn({ method: 'pin', accountNumber: 'LF-N', pin: (await h.request('POST', `/customers/${customerID}?action=generatePIN`, {})).body.pin })
    const seen = async () => {
      const page = (await v.go('GET', '/calls')).text
      const calls = [...page.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td><td>[^<]*<\/td><td class="num">[^<]*<\/td><td class="num">([^<]*)<\/td><td class="num">([^<]*)<\/td><\/tr>/g)].map((m) => m.slice(1))
      const total = /Total so far: <strong>([^<]*)<\/strong>/.exec(page)![1]
      const csv = (await v.go('GET', `/invoices/${invoice.id}/csv`)).text.trim().split('\r\n').slice(1)
      const csvNumbers = [...new Set(csv.map((line) => line.split(',')[1]))].sort()
      return { from: calls.map((c) => c[0]), costs: calls.map((c) => c[1]), running: calls.map((c) => c[2]), total, csvNumbers, csvLines: csv.length }
    }
    const before = await seen()
    assert.equal(before.from, numbers.map((n) => n.replace(/\s/g, '')))
    assert.equal(before.costs, ['£0.10', '£0.19', '£0.28', '£0.37', '£0.46'])
    assert.is(before.total, '£1.40')
    assert.equal(before.csvNumbers, [...numbers].sort())
    assert.is(before.csvLines, 10)

    const flags: Record<string, unknown>[] = [
      { loginFlagsDeny: ['Wallboard', 'Missed Calls'] }, // other statistics change nothing: shown
      { loginFlagsDeny: ['Call Statistics'] }, // hidden
      { loginFlagsAllow: ['Wallboard'] }, // an allow list without Call Statistics: hidden
      { loginFlagsAllow: ['Call Statistics', 'Call Recording'] }, // shown
      { loginFlagsAllow: ['Call Statistics'], loginFlagsDeny: ['Call Statistics'] }, // deny wins: hidden
    ]
    for (const [i, body] of flags.entries()) assert.is((await h.request('PATCH', `/numbers/${numberIDs[i]}`, body)).status, 200, JSON.stringify(body))
    const after = await seen()
    assert.equal(after.from, [numbers[0], numbers[3]].map((n) => n.replace(/\s/g, '')))
    assert.equal(after.costs, ['£0.10', '£0.37'])
    assert.equal(after.running, ['£0.10', '£0.47'])
    assert.is(after.total, '£0.47', 'the total is of the calls shown')
    assert.equal(after.csvNumbers, [numbers[0], numbers[3]].sort())
    assert.is(after.csvLines, 4)
    // The invoice document is the bill: every number's calls stay on it.
    await h.request('PATCH', `/customers/${customerID}`, { GDPRPECRConsentGiven: 'Yes' })
    const html = (await v.go('GET', `/invoices/${invoice.id}`)).text
    const dialled = Array.from({ length: 10 }, (_, i) => `${['01632 960', '07700 900', '+33 1 70 36', '0345 600'][i % 4]} ${String(i).padStart(3, '0')}`)
    for (const d of dialled) assert.ok(html.includes(d), `${d} on the document`)
  })

  test.run()
}
