import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * An expanded list reads its children beside the page, found by the page's own query: what it
 * shows must be what each item's own lists show, for any paging, filter and *Active flag.
 */

type Json = Record<string, any>
const DROP = { status: 'Dropped', dateDrop: '2026-01-31' }

/** The children a list of the API gives, without the dropped ones when `onlyActive`. */
async function listOf(h: Harness, path: string, onlyActive: boolean): Promise<Json[]> {
  const r = await h.request('GET', path)
  assert.is(r.status, 200, JSON.stringify(r.body))
  return (r.body as Json[]).filter((x) => !onlyActive || !x.isDropped)
}

const strip = (x: Json) => {
  const { numbers: _n, services: _s, features: _f, ...rest } = x
  return rest
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; first: string }>(`http expansions read beside the page [${target}]`)
  test.before(async (ctx) => {
    const h = (ctx.h = await openHarness(target))
    // Customers (some dropped) with numbers and services (some dropped), each with features
    // (some dropped), and features of their own; children created interleaved across customers.
    const customers: string[] = []
    for (let i = 0; i < 7; i++) customers.push((await h.request('POST', '/customers', { accountNumber: `XP-${i}` })).body.id)
    ctx.first = customers[0]
    for (let round = 0; round < 3; round++) {
      for (const [i, c] of customers.entries()) {
        if ((i + round) % 4 === 3) continue
        const n = (await h.request('POST', `/customers/${c}/numbers`, { number: `0300 7${i}${round}` })).body.id
        const s = (await h.request('POST', `/customers/${c}/services`, { serviceType: 'FTTP' })).body.id
        const fn = (await h.request('POST', `/numbers/${n}/features`, { featureType: 'Line Rental' })).body.id
        const fs = (await h.request('POST', `/services/${s}/features`, { featureType: 'Static IP' })).body.id
        const fc = (await h.request('POST', `/customers/${c}/features`, { featureType: 'Support' })).body.id
        // Features first: dropping a number or a service drops its features too.
        if (round === 1) await act(h, `/features/${fn}`, 'drop', DROP)
        if (i % 2 === 0) await act(h, `/features/${fs}`, 'drop', DROP)
        if (round === 2) await act(h, `/features/${fc}`, 'drop', DROP)
        if ((i + round) % 3 === 0) await act(h, `/numbers/${n}`, 'drop', DROP)
        if ((i * round) % 5 === 1) await act(h, `/services/${s}`, 'drop', DROP)
      }
    }
    for (const i of [2, 5]) await act(h, `/customers/${customers[i]}`, 'drop', DROP)
  })
  test.after(async (ctx) => ctx.h.close())

  test('customers: each expanded page holds what its customers own lists hold', async ({ h, first }) => {
    const pagings = [`idAfter=${Number(first) - 1}&limit=3`, `idAfter=${first}&limit=4&offset=1`, 'limit=2&offset=3', 'active&limit=3&offset=1', 'dropped&limit=1', `dropped&idAfter=${first}&limit=1`, 'limit=100']
    const flagSets = [
      ['expandNumbers'],
      ['expandNumbers', 'numberActive'],
      ['expandNumbers', 'expandFeatures', 'featureActive'],
      ['expandNumbers', 'expandServices', 'expandFeatures', 'numberActive', 'serviceActive'],
      ['expandServices', 'expandFeatures', 'serviceActive', 'featureActive'],
      ['expandFeatures'],
    ]
    for (const paging of pagings) {
      const plain = await h.request('GET', `/customers?${paging}`)
      for (const flags of flagSets) {
        const r = await h.request('GET', `/customers?${paging}&${flags.join('&')}`)
        assert.is(r.status, 200, JSON.stringify(r.body))
        assert.equal(r.body.map(strip), plain.body, `${paging} ${flags}: the same page`)
        assert.is(r.headers.get('link') === null, plain.headers.get('link') === null, 'a next page exactly when the plain list has one')
        const has = (f: string) => flags.includes(f)
        for (const c of r.body as Json[]) {
          for (const kind of ['numbers', 'services'] as const) {
            if (!has(kind === 'numbers' ? 'expandNumbers' : 'expandServices')) {
              assert.is(c[kind], undefined)
              continue
            }
            const own = await listOf(h, `/customers/${c.id}/${kind}`, has(kind === 'numbers' ? 'numberActive' : 'serviceActive'))
            assert.equal(c[kind].map(strip), own, `${paging} ${flags}: ${kind} of ${c.id}`)
            for (const child of c[kind] as Json[]) {
              if (!has('expandFeatures')) assert.is(child.features, undefined)
              else assert.equal(child.features, await listOf(h, `/${kind}/${child.id}/features`, has('featureActive')), `features of ${kind} ${child.id}`)
            }
          }
          if (has('expandFeatures')) assert.equal(c.features, await listOf(h, `/customers/${c.id}/features`, has('featureActive')))
          else assert.is(c.features, undefined)
        }
      }
    }
  })

  test("numbers and services: an expanded page, scoped or not, holds each one's own features", async ({ h, first }) => {
    for (const kind of ['numbers', 'services'] as const) {
      for (const path of [`/${kind}?limit=5`, `/${kind}?limit=4&offset=2`, `/customers/${first}/${kind}`, `/${kind}?active`]) {
        for (const featureActive of [false, true]) {
          const r = await h.request('GET', `${path}${path.includes('?') ? '&' : '?'}expandFeatures${featureActive ? '&featureActive' : ''}`)
          assert.is(r.status, 200, JSON.stringify(r.body))
          assert.equal(r.body.map(strip), (await h.request('GET', path)).body)
          for (const item of r.body as Json[]) assert.equal(item.features, await listOf(h, `/${kind}/${item.id}/features`, featureActive), `${path}: ${item.id}`)
        }
      }
    }
  })

  test.run()
}
