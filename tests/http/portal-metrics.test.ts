import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createHttpApp, type RequestLogEntry } from '../../adapters/http/app.js'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** One metric's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/**
 * Contract 13: requests are counted by route pattern, the portal's pages too (contract 14.3):
 * `/portal/invoices/:id`, never the raw ID and never `unmatched`.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal pages in metrics and logs [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('a portal page request is counted and logged under its pattern, not its path', async ({ h, base }) => {
    const w = await world(h)
    const visitor = new Visitor(base)
    assert.is((await visitor.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })).status, 303)
    assert.is((await visitor.go('GET', `/invoices/${w.invA.id}`)).status, 200)
    assert.is((await visitor.go('GET', '/no-such-page')).status, 404)
    const text = (await h.request('GET', '/metrics')).text
    assert.is(sample(text, 'billing_http_requests_total{method="GET",route="/portal/invoices/:id",status="200"}'), 1, text.slice(0, 3000))
    assert.is(sample(text, 'billing_http_requests_total{method="POST",route="/portal/sign-in",status="303"}'), 1)
    assert.is(sample(text, 'billing_http_requests_total{method="GET",route="/portal/**",status="404"}'), 1, 'the portal\'s own not-found page, bounded')
    assert.not.match(text, new RegExp(`route="[^"]*/${w.invA.id}"`), 'no raw ID becomes a label')
    assert.not.match(text, /route="unmatched",status="(200|303)"/)
  })

  test('the request line of a portal page names its pattern', async ({ h }) => {
    const entries: RequestLogEntry[] = []
    const page = { method: 'GET' as const, path: '/portal/invoices/:id', handler: async () => new Response('ok') }
    const app = createHttpApp({ platform: h.platform.context, secrets: h.platform.secrets, routes: h.platform.routes, pages: { prefix: '/portal', routes: [page] }, onRequestEnd: (e) => entries.push(e) })
    assert.is((await app.request('/portal/invoices/42')).status, 200)
    assert.equal(entries.map((e) => [e.path, e.route]), [['/portal/invoices/42', '/portal/invoices/:id']])
  })

  test.run()
}
