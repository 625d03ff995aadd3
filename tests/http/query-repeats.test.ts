import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Route } from '../../adapters/http/route.js'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Two values of each query parameter a route reads: both acceptable alone, so that a route taking
 * the first silently answers something else than the refusal. A name not here gets `true`.
 */
const values: Record<string, readonly [string, string]> = {
  pages: ['short', 'long'],
  cutoffDate: ['2026-01-31', '2026-02-28'],
  name: ['a.csv', 'b.csv'],
  format: ['x', 'y'],
  carrier: ['Gamma', 'BT'],
  period: ['2026-01', '2026-02'],
  from: ['2026-01-01', '2026-01-02'],
  to: ['2026-01-31', '2026-02-01'],
  groupBy: ['customer', 'carrier'],
  billingRunID: ['1', '2'],
  holder: ['a', 'b'],
  action: ['generatePIN', 'drop'],
  limit: ['1', '2'],
  currency: ['GBP', 'EUR'],
}

/** The route's path with each `:id` the ID of the collection named just before it. */
function pathOf(route: Route, ids: Readonly<Record<string, string>>): string | null {
  const parts = route.path.split('/')
  const filled = parts.map((p, i) => (p.startsWith(':') ? ids[parts[i - 1]] : p))
  return filled.includes(undefined as never) ? null : filled.join('/')
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; ids: Record<string, string> }>(`http query parameters given twice [${target}]`)
  test.before(async (ctx) => {
    const h = (ctx.h = await openHarness(target))
    const customers = await newCustomer(h)
    const numbers = (await h.request('POST', `/customers/${customers}/numbers`, { number: '0161 555 0101' })).body.id
    const services = (await h.request('POST', `/customers/${customers}/services`, {})).body.id
    const features = await newFeature(h, customers, { serviceCharge: 10, startDate: '2026-01-01' })
    const customerContacts = (await h.request('POST', `/customers/${customers}/customerContacts`, { lastname: 'Twice' })).body.id
    await bill(h, '2026-01-31')
    const invoices = (await h.request('GET', `/customers/${customers}/invoices`)).body[0].id
    const billingRuns = (await h.request('GET', '/billingRuns')).body[0].id
    ctx.ids = { customers, numbers, services, features, customerContacts, invoices, billingRuns }
  })
  test.after(async (ctx) => ctx.h.close())

  test('every route that reads its query refuses a name given twice (400103), as lists do', async ({ h, ids }) => {
    const reading = h.platform.routes.filter((r) => r.doc.query?.length)
    const checked = new Set<string>()
    for (const route of reading) {
      const path = pathOf(route, ids)
      // Lists under parents not made here are the same list code as those that are.
      if (path === null && route.doc.kind === 'list') continue
      assert.ok(path, `${route.method} ${route.path}: no ID made for its path`)
      // A list reads every name alike: one is enough; any other route is checked name by name.
      const names = route.doc.kind === 'list' ? ['limit'] : route.doc.query!
      for (const name of names) {
        const [a, b] = values[name] ?? ['true', 'true']
        const url = `${path}?${name}=${encodeURIComponent(a)}&${name}=${encodeURIComponent(b)}`
        const r = await h.request(route.method, url, route.method === 'GET' ? undefined : {}, route.doc.contentType === 'text/csv' ? { raw: 'x\n', headers: { 'content-type': 'text/csv' } } : {})
        assert.equal([r.status, r.body?.error_code], [400, 400103], `${route.method} ${url}: ${r.text.slice(0, 200)}`)
        assert.match(r.body.error, `Query parameter "${name}" is given more than once`, url)
        assert.ok(r.body.hint.length > 0, url)
      }
      checked.add(`${route.method} ${route.path}`)
    }
    for (const route of reading.filter((r) => r.doc.kind !== 'list')) assert.ok(checked.has(`${route.method} ${route.path}`), `${route.method} ${route.path} checked`)
  })

  // Audit: lists gathered the query on a plain object, so `__proto__` hit its setter and vanished (200),
  // and `constructor` or `toString`, found there already, was "given more than once".
  test('every list refuses __proto__, constructor, toString and hasOwnProperty as unknown names (400103), once or twice', async ({ h, ids }) => {
    const lists = h.platform.routes.filter((r) => r.method === 'GET' && r.doc.kind === 'list')
    let checked = 0
    for (const route of lists) {
      const path = pathOf(route, ids)
      if (path === null) continue
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        for (const query of [`${name}=1`, `${name}=1&${name}=2`]) {
          const r = await h.request('GET', `${path}?${query}`)
          assert.equal([r.status, r.body?.error_code], [400, 400103], `GET ${path}?${query}: ${r.text.slice(0, 200)}`)
          assert.match(r.body.error, query.includes('&') ? `Query parameter "${name}" is given more than once` : `Unknown query parameter "${name}"`, `${path}?${query}`)
        }
      }
      checked++
    }
    assert.ok(checked > 20, `${checked} lists checked`)
    // An item read with expansions parses its query as a list does.
    const item = await h.request('GET', `/customers/${ids.customers}?__proto__=1`)
    assert.equal([item.status, item.body?.error_code], [400, 400103], item.text.slice(0, 200))
  })

  test('a repeated query refuses the write: no usage file, no carrier bill', async ({ h }) => {
    const rows = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID\n'
    const usage = await h.request('POST', '/usageFiles?name=a.csv&name=b.csv', undefined, { raw: rows, headers: { 'content-type': 'text/csv' } })
    assert.equal([usage.status, usage.body.error_code], [400, 400103])
    assert.equal((await h.request('GET', '/usageFiles')).body, [], 'nothing imported')
    const billed = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01&period=2026-02', undefined, { raw: 'productCode,cost\n', headers: { 'content-type': 'text/csv' } })
    assert.equal([billed.status, billed.body.error_code], [400, 400103])
    assert.equal((await h.request('GET', '/carrierBills')).body, [], 'nothing stored')
  })

  test('the item in the path is still checked before the query (contract 2)', async ({ h }) => {
    const r = await h.request('GET', '/customers/999999?expandNumbers&expandNumbers')
    assert.equal([r.status, r.body.error_code], [404, 404001])
    const action = await h.request('POST', '/customers/999999?action=drop&action=drop', {})
    assert.equal([action.status, action.body.error_code], [404, 404001])
  })

  test.run()
}
