import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseRateLimit } from '../../adapters/http/rate-limit.js'
import { readEnvConfig } from '../../apps/platform/config.js'
import { BASE, openHarness, type ApiResponse } from '../support/harness.js'
import { capturedLogger } from '../support/log-lines.js'
import { startServer } from '../support/server-process.js'
import { activeTargets } from '../support/targets.js'

const contractError = (r: ApiResponse, status: number, code: number) => {
  assert.is(r.status, status, r.text)
  assert.equal(Object.keys(r.body), ['error', 'error_code', 'hint'])
  assert.is(r.body.error_code, code)
  assert.ok(r.headers.get('x-request-id'))
}

const config = suite('security limits: configuration')

config('BILLING_RATE_LIMIT is "<requests>/<seconds>": a burst of <requests>, refilled over <seconds>; "0" is off', () => {
  assert.equal(parseRateLimit('100/1'), { burst: 100, perSecond: 100 })
  assert.equal(parseRateLimit('100/2'), { burst: 100, perSecond: 50 })
  assert.equal(parseRateLimit(' 5/0.5 '), { burst: 5, perSecond: 10 })
  assert.is(parseRateLimit('0'), null)
  assert.is(parseRateLimit('off'), null)
  for (const bad of ['', 'abc', '10', '10/0', '0/5', '-1/1', '1e3/1', '10/1/2']) {
    assert.throws(() => parseRateLimit(bad), /BILLING_RATE_LIMIT/, bad)
  }
  const base = { DATABASE_URL: 'sqlite::memory:' }
  assert.equal(readEnvConfig(base).rateLimit, { burst: 100, perSecond: 50 }, 'generous by default')
  assert.is(readEnvConfig({ ...base, BILLING_RATE_LIMIT: '0' }).rateLimit, null)
  assert.is(readEnvConfig(base).requestTimeoutMs, 30_000)
  assert.is(readEnvConfig({ ...base, BILLING_REQUEST_TIMEOUT_MS: '1500' }).requestTimeoutMs, 1500)
  assert.throws(() => readEnvConfig({ ...base, BILLING_REQUEST_TIMEOUT_MS: 'soon' }), /BILLING_REQUEST_TIMEOUT_MS/)
  assert.equal(readEnvConfig(base).connections, { maxConnections: 10_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 10_000, idleTimeoutMs: 65_000, sendTimeoutMs: 30_000 })
  assert.is(readEnvConfig({ ...base, BILLING_REQUEST_TIMEOUT_MS: '1500' }).connections.headersTimeoutMs, 1500, 'headers within the request timeout by default')
  const set = readEnvConfig({ ...base, BILLING_MAX_CONNECTIONS: '50', BILLING_HEADERS_TIMEOUT_MS: '2000', BILLING_BODY_TIMEOUT_MS: '3000', BILLING_IDLE_TIMEOUT_MS: '4000', BILLING_SEND_TIMEOUT_MS: '5000' })
  assert.equal(set.connections, { maxConnections: 50, headersTimeoutMs: 2000, bodyTimeoutMs: 3000, idleTimeoutMs: 4000, sendTimeoutMs: 5000 })
  for (const name of ['BILLING_MAX_CONNECTIONS', 'BILLING_HEADERS_TIMEOUT_MS', 'BILLING_BODY_TIMEOUT_MS', 'BILLING_IDLE_TIMEOUT_MS', 'BILLING_SEND_TIMEOUT_MS']) {
    for (const bad of ['0', '-1', '1.5', 'soon']) assert.throws(() => readEnvConfig({ ...base, [name]: bad }), new RegExp(name), `${name}=${bad}`)
  }
})

config('the server reads both from the environment: a key past its rate answers 429; a stalled request is cut off', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'limits-server-'))
  const server = startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, BILLING_RATE_LIMIT: '3/60', BILLING_REQUEST_TIMEOUT_MS: '1000' })
  try {
    const base = await server.ready
    const key = /shown only once:\n(\S+)/.exec(server.out())?.[1]
    const get = () => fetch(`${base}/customers`, { headers: { authorization: `Bearer ${key}` } })
    for (let i = 0; i < 3; i++) assert.is((await get()).status, 200)
    const limited = await get()
    assert.is(limited.status, 429)
    assert.is(limited.headers.get('retry-after'), '20')
    assert.is((await limited.json()).error_code, 429001)
    // Headers that never end: the socket is answered 408 and closed after about the timeout.
    const { port } = new URL(base)
    const started = performance.now()
    const answer = await new Promise<string>((resolve) => {
      let got = ''
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'))
      socket.on('data', (c) => (got += c))
      socket.on('close', () => resolve(got))
    })
    const took = performance.now() - started
    assert.ok(took >= 900 && took < 4000, `closed after ${Math.round(took)} ms`)
    assert.match(answer, /^HTTP\/1\.1 408/)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  }
})
config.run()

for (const target of activeTargets()) {
  const test = suite(`security limits [${target}]`)

  test('rate limit per key: a burst, then 429001 with Retry-After; other keys, public routes and refills unaffected', async () => {
    let now = 0
    const h = await openHarness(target, { config: { rateLimit: { burst: 3, perSecond: 0.5 }, rateLimitClock: () => now } })
    try {
      for (let i = 0; i < 3; i++) assert.is((await h.request('GET', '/customers')).status, 200)
      const limited = await h.request('GET', '/customers')
      contractError(limited, 429, 429001)
      assert.is(limited.headers.get('retry-after'), '2')
      contractError(await h.request('GET', '/no/such/route'), 429, 429001)
      assert.is((await h.request('GET', '/customers', undefined, { key: h.keys.low })).status, 200, 'another key has its own bucket')
      contractError(await h.request('GET', '/customers', undefined, { key: null }), 401, 401001)
      assert.is((await h.request('GET', '/healthz', undefined, { key: null })).status, 200, 'public routes need no key and no token')
      now += 1999
      contractError(await h.request('GET', '/customers'), 429, 429001)
      now += 1
      assert.is((await h.request('GET', '/customers')).status, 200, 'one token back after 2 s')
      now += 60_000
      for (let i = 0; i < 3; i++) assert.is((await h.request('GET', '/customers')).status, 200, 'the bucket refills up to the burst')
      assert.is((await h.request('GET', '/customers')).status, 429)
    } finally {
      await h.close()
    }
  })

  test('a handler past its deadline answers 503001 at the deadline; the others are unaffected', async () => {
    const { logger, entries } = capturedLogger()
    const h = await openHarness(target, { config: { requestTimeoutMs: 150, logger } })
    try {
      const id = (await h.request('POST', '/customers', { companyName: 'Slow Ltd' })).body.id
      // A GET of an item reads its JSON (ListJson.get).
      const reads = h.platform.context.store.listJson
      const get = reads.get.bind(reads)
      let finished = 0
      ;(reads as { get: unknown }).get = async (name: 'customers', i: string) => {
        await new Promise((r) => setTimeout(r, 600))
        finished++
        return get(name, i)
      }
      const started = performance.now()
      const slow = await h.request('GET', `/customers/${id}`, undefined, { headers: { 'x-request-id': 'slow-1' } })
      const took = performance.now() - started
      contractError(slow, 503, 503001)
      assert.is(slow.headers.get('retry-after'), '1')
      assert.is(slow.headers.get('x-request-id'), 'slow-1')
      assert.ok(took >= 140 && took < 550, `answered after ${Math.round(took)} ms`)
      assert.ok(entries().some((e) => e.msg === 'request' && e.requestId === 'slow-1' && e.status === 503), 'the request log shows the 503')
      ;(reads as { get: unknown }).get = get
      assert.is((await h.request('GET', `/customers/${id}`)).status, 200)
      await new Promise((r) => setTimeout(r, 600))
      assert.is(finished, 1, 'the abandoned work ran to its end without harm')
    } finally {
      await h.close()
    }
  })

  test('page size: limit 1..1000 on every list route; 0, 1001 or junk → 400103', async () => {
    const h = await openHarness(target)
    try {
      const customer = (await h.request('POST', '/customers', {})).body.id
      const lists = h.platform.routes.filter((r) => r.doc.kind === 'list' && (!r.path.includes(':') || r.path.startsWith('/customers/:id/')))
      assert.ok(lists.length >= 15, `${lists.length} list routes`)
      for (const route of lists) {
        const path = `${BASE}${route.path.replace(':id', customer)}`
        for (const ok of ['1', '1000']) assert.is((await h.request('GET', `${path}?limit=${ok}`)).status, 200, `${path}?limit=${ok}`)
        for (const bad of ['0', '1001', '-1', '10.5', '1e3', '']) contractError(await h.request('GET', `${path}?limit=${bad}`), 400, 400103)
      }
    } finally {
      await h.close()
    }
  })
  test.run()
}
