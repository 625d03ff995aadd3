import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { chooseEncoding } from '../../adapters/http/middleware/compression.js'
import { parseCorsOrigins } from '../../adapters/http/middleware/cors.js'
import { readEnvConfig } from '../../apps/platform/config.js'
import { BASE, openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/** HTTP conveniences a client expects: conditional GETs, compression, CORS. */
const APP = 'https://app.example.com'

const units = suite('http niceties: settings and negotiation')
units('Accept-Encoding: brotli first at equal weight; q=0 refuses; * counts; nothing usable is null', () => {
  assert.is(chooseEncoding('gzip, deflate, br'), 'br')
  assert.is(chooseEncoding('br;q=0.5, gzip'), 'gzip')
  assert.is(chooseEncoding('br;q=0, gzip;q=0'), null)
  assert.is(chooseEncoding('identity'), null)
  assert.is(chooseEncoding('*'), 'br')
  assert.is(chooseEncoding('*;q=0, gzip'), 'gzip')
})
units('BILLING_CORS_ORIGINS: origins or *, anything else refused naming the variable', () => {
  assert.equal(parseCorsOrigins(undefined), [])
  assert.equal(parseCorsOrigins(' https://a.example, http://localhost:5173 '), ['https://a.example', 'http://localhost:5173'])
  assert.equal(readEnvConfig({ BILLING_CORS_ORIGINS: '*' }).corsOrigins, ['*'])
  assert.throws(() => readEnvConfig({ BILLING_CORS_ORIGINS: 'app.example.com' }), /BILLING_CORS_ORIGINS: "app.example.com" is not an origin/)
  assert.throws(() => parseCorsOrigins('https://a.example/path'), /write it as https:\/\/a.example/)
})
units.run()

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; id: string }>(`http niceties [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { config: { corsOrigins: [APP] } })
    const c = await ctx.h.request('POST', '/customers', { accountNumber: 'NICE-1', companyName: 'Nice Ltd' })
    ctx.id = c.body.id
    for (let i = 0; i < 30; i++) await ctx.h.request('POST', '/customers', { accountNumber: `NICE-LIST-${i}`, companyName: `Listed ${i} Ltd` })
  })
  test.after(async (ctx) => ctx.h.close())

  test('item GETs carry an ETag; If-None-Match answers 304 with no body until the item changes', async ({ h, id }) => {
    const first = await h.request('GET', `/customers/${id}`)
    const etag = first.headers.get('etag')!
    assert.match(etag, /^"[\w-]{27}"$/)
    const again = await h.request('GET', `/customers/${id}`, undefined, { headers: { 'if-none-match': etag } })
    assert.is(again.status, 304)
    assert.is(again.text, '')
    assert.is(again.headers.get('etag'), etag)
    assert.is((await h.request('GET', `/customers/${id}`, undefined, { headers: { 'if-none-match': `"other", W/${etag}` } })).status, 304)
    assert.is((await h.request('GET', `/customers/${id}`, undefined, { headers: { 'if-none-match': '*' } })).status, 304)
    assert.is((await h.request('PATCH', `/customers/${id}`, { companyName: 'Nicer Ltd' })).status, 200)
    const changed = await h.request('GET', `/customers/${id}`, undefined, { headers: { 'if-none-match': etag } })
    assert.is(changed.status, 200)
    assert.is(changed.body.companyName, 'Nicer Ltd')
    assert.is.not(changed.headers.get('etag'), etag)
    // Without a key the answer is 401, never a 304 that would confirm the item exists.
    assert.is((await h.request('GET', `/customers/${id}`, undefined, { key: null, headers: { 'if-none-match': etag } })).status, 401)
  })

  test('large answers are compressed with brotli or gzip when asked; small ones and unasked ones are not', async ({ h }) => {
    const url = `${BASE}/customers?limit=30`
    const auth = { authorization: `Bearer ${h.keys.admin}` }
    const plain = await h.platform.app.request(url, { headers: auth })
    const text = await plain.text()
    assert.ok(text.length > 4096, `a large page (${text.length} bytes)`)
    assert.is(plain.headers.get('content-encoding'), null)
    for (const [accept, encoding, inflate] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await h.platform.app.request(url, { headers: { ...auth, 'accept-encoding': accept } })
      assert.is(res.status, 200)
      assert.is(res.headers.get('content-encoding'), encoding)
      assert.match(res.headers.get('vary') ?? '', /Accept-Encoding/)
      assert.ok(res.headers.get('x-request-id'))
      const bytes = Buffer.from(await res.arrayBuffer())
      assert.is(Number(res.headers.get('content-length')), bytes.length)
      assert.ok(bytes.length < text.length / 3, `${encoding}: ${bytes.length} of ${text.length} bytes`)
      assert.is(inflate(bytes).toString('utf8'), text)
    }
    const small = await h.platform.app.request('/healthz', { headers: { 'accept-encoding': 'br' } })
    assert.is(small.status, 200)
    assert.is(small.headers.get('content-encoding'), null)
    const refused = await h.platform.app.request(url, { headers: { ...auth, 'accept-encoding': 'br;q=0, gzip;q=0' } })
    assert.is(refused.headers.get('content-encoding'), null)
  })

  test('CORS: a preflight from an allowed origin answers without a key; answers carry the origin; other origins get nothing', async ({ h, id }) => {
    const preflight = await h.request('OPTIONS', `/customers/${id}`, undefined, {
      key: null,
      headers: { origin: APP, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' },
    })
    assert.is(preflight.status, 204)
    assert.is(preflight.headers.get('access-control-allow-origin'), APP)
    assert.match(preflight.headers.get('access-control-allow-methods')!, /PATCH/)
    assert.match(preflight.headers.get('access-control-allow-headers')!, /authorization/)
    const get = await h.request('GET', `/customers/${id}`, undefined, { headers: { origin: APP } })
    assert.is(get.headers.get('access-control-allow-origin'), APP)
    assert.match(get.headers.get('access-control-expose-headers')!, /link/)
    assert.match(get.headers.get('vary') ?? '', /Origin/)
    const denied = await h.request('GET', `/customers/${id}`, undefined, { key: null, headers: { origin: APP } })
    assert.is(denied.status, 401)
    assert.is(denied.headers.get('access-control-allow-origin'), APP, 'the browser may read the error')
    const other = await h.request('OPTIONS', `/customers/${id}`, undefined, {
      key: null,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    })
    assert.is(other.status, 401)
    assert.is(other.headers.get('access-control-allow-origin'), null)
  })

  test.run()
}
