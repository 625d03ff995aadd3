import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fullPath, type Route } from '../../adapters/http/route.js'
import { nodeKeySecrets } from '../../adapters/security/node-key-secrets.js'
import { capturedLogger } from '../support/log-lines.js'
import { authenticate, createApiKey } from '../../core/access/api-keys.js'
import { generateArchive } from '../../core/disaster-recovery/archive-jobs.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import { openHarness, type ApiResponse, type Harness, type RequestOptions } from '../support/harness.js'
import { findLeak } from '../support/leak-scan.js'
import { activeTargets } from '../support/targets.js'

const PASSWORD = 'access-dr-password-91d2'

interface Ctx {
  h: Harness
  dir: string
  /** JSON log lines the platform wrote. */
  lines: string[]
  /** Every response of the suite, scanned for leaks at the end. */
  seen: ApiResponse[]
  /** Level 1 with dataProtectionDownload; level 5 without it. */
  drOnly: string
  fullNoDr: string
}

/** The route's path with every parameter filled (auth and access come before the item check). */
const pathOf = (route: Route, id = '999999') => fullPath(route).replace(/:\w+/g, id)

for (const target of activeTargets()) {
  const test = suite<Ctx>(`security access [${target}]`)
  const call = async (ctx: Ctx, route: Route, options: RequestOptions, id?: string) => {
    const body = route.method === 'POST' || route.method === 'PATCH' ? {} : undefined
    const r = await ctx.h.request(route.method, pathOf(route, id), body, options)
    ctx.seen.push(r)
    return r
  }
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'access-dr-'))
    ctx.seen = []
    const { logger, lines } = capturedLogger()
    ctx.lines = lines
    ctx.h = await openHarness(target, { config: { drDir: ctx.dir, drPassword: PASSWORD, logger } })
    const { store } = ctx.h.platform.context
    const key = async (name: string, expertLevel: number, permissions: string[]) =>
      (await createApiKey(store.apiKeys, nodeKeySecrets, ctx.h.clock, { name, expertLevel, permissions })).secret
    ctx.drOnly = await key('dr-only', 1, ['dataProtectionDownload'])
    ctx.fullNoDr = await key('full-no-dr', 5, [])
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('every non-public route refuses no key, a malformed header, an unknown and a revoked key → 401001', async (ctx) => {
    const { h } = ctx
    const refused: [string | null, Record<string, string>][] = [
      [null, {}],
      [null, { authorization: 'Basic YWRtaW46cGFzcw==' }],
      [null, { authorization: 'Bearer' }],
      [null, { authorization: `Bearer ${h.keys.admin} extra` }],
      [null, { authorization: `bearer${h.keys.admin}` }],
      ['tbk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {}],
      [h.keys.revoked, {}],
    ]
    const guarded = h.platform.routes.filter((r) => !r.public)
    assert.ok(guarded.length > 50, `${guarded.length} routes`)
    for (const route of guarded) {
      for (const [key, headers] of refused) {
        const r = await call(ctx, route, { key, headers })
        const what = `${route.method} ${route.path} with ${key ? 'key' : JSON.stringify(headers)}`
        assert.is(r.status, 401, what)
        assert.equal(r.body, { error: r.body.error, error_code: 401001, hint: r.body.hint }, what)
      }
    }
    for (const route of h.platform.routes.filter((r) => r.public)) {
      // A provider's callback needs no key but its own signature (contract 15.1): unsigned, it is 401.
      const signed = route.doc.errors?.includes(401001)
      assert.is((await call(ctx, route, { key: null })).status, signed ? 401 : 200, `${route.path} is public`)
    }
  })

  test("an item's history needs what GET of the item needs: a credit note's is expert level 3 (403103) before 404", async (ctx) => {
    const { routes } = ctx.h.platform
    const histories = routes.filter((r) => r.method === 'GET' && /^\/\w+\/:id\/history$/.test(r.path))
    assert.ok(histories.some((r) => r.path === '/creditNotes/:id/history'), 'credit notes have a history')
    for (const route of histories) {
      const item = routes.find((r) => r.method === 'GET' && r.path === route.path.slice(0, -'/history'.length))
      assert.ok(item, `GET ${route.path} has its item's route`)
      assert.is(route.access, item!.access, route.path)
    }
    const r = await call(ctx, histories.find((r) => r.path === '/creditNotes/:id/history')!, { key: ctx.h.keys.low })
    assert.equal([r.status, r.body.error_code], [403, 403103])
  })

  test('applyIncrease and webhooks need expert level 5 (403101); disaster recovery needs dataProtectionDownload (403102); both before 404', async (ctx) => {
    const { h } = ctx
    const restricted = h.platform.routes.filter((r) => r.access)
    const level5 = restricted.filter((r) => r.access === 'expertLevel5')
    const dr = restricted.filter((r) => r.access === 'dataProtectionDownload')
    assert.ok(dr.length >= 2, 'the disaster-recovery routes are restricted')
    assert.ok(level5.some((r) => /applyIncrease/.test(r.path)), 'the applyIncrease routes are restricted')
    assert.ok(level5.some((r) => /^\/webhooks/.test(r.path)), 'webhook management is restricted (contract 12)')
    for (const route of level5) assert.match(route.path, /applyIncrease|^\/webhooks/)
    for (const route of restricted) assert.not.ok(route.public, `${route.path} is restricted, not public`)
    const expect = async (route: Route, key: string, code: number | null) => {
      const r = await call(ctx, route, { key })
      const what = `${route.method} ${route.path}`
      if (code) assert.equal([r.status, r.body.error_code], [403, code], what)
      else assert.ok(r.status !== 403 && r.status !== 401, `${what}: ${r.status} ${r.text}`)
    }
    for (const route of level5) {
      await expect(route, h.keys.low, 403101)
      await expect(route, ctx.drOnly, 403101)
      await expect(route, h.keys.admin, null)
      await expect(route, ctx.fullNoDr, null)
    }
    for (const route of dr) {
      await expect(route, h.keys.low, 403102)
      await expect(route, ctx.fullNoDr, 403102)
      await expect(route, ctx.drOnly, null)
      await expect(route, h.keys.admin, null)
    }
    // A low key reaches every route without an access rule (a 404 for the made-up ID, never a 403).
    // (A provider's callback takes no key at all: its signature is tested in tests/http/payment-callbacks.test.ts.)
    for (const route of h.platform.routes.filter((r) => !r.access && !r.doc.errors?.includes(401001))) {
      const r = await call(ctx, route, { key: h.keys.low })
      assert.ok(r.status !== 401 && r.status !== 403, `${route.method} ${route.path}: ${r.status}`)
    }
  })

  test('keys are compared in constant time: timingSafeEqual in the implementation, and authentication goes through it', async (ctx) => {
    const source = readFileSync('adapters/security/node-key-secrets.ts', 'utf8')
    assert.match(source, /import \{[^}]*\btimingSafeEqual\b[^}]*\} from 'node:crypto'/)
    const equal = /equal\(a, b\) \{([\s\S]*?)\n {2}\}/.exec(source)?.[1] ?? ''
    assert.match(equal, /timingSafeEqual\(x, y\)/, 'equal() compares with timingSafeEqual')
    assert.not.match(equal, /\ba\s*[!=]==?\s*b\b/, 'equal() never compares the strings directly')
    const s = nodeKeySecrets
    const [one, two] = [s.hash('tbk_one'), s.hash('tbk_two')]
    assert.ok(s.equal(one, s.hash('tbk_one')))
    assert.not.ok(s.equal(one, two))
    assert.not.ok(s.equal(one, one.slice(0, -2)), 'different lengths: false, no throw')
    assert.not.ok(s.equal(one, 'zz'.repeat(32)), 'not hex: false, no throw')
    const compared: [string, string][] = []
    const spy: KeySecrets = { ...s, equal: (a, b) => (compared.push([a, b]), s.equal(a, b)) }
    const key = await authenticate(ctx.h.platform.context.store.apiKeys, spy, ctx.h.keys.admin)
    assert.is(key.name, 'test-admin')
    assert.equal(compared, [[s.hash(ctx.h.keys.admin), s.hash(ctx.h.keys.admin)]])
    assert.not.ok('keyHash' in key, 'the hash stays inside')
  })

  test('no response shows a stack trace, SQL, a key or the DR password; request logs hold no secret', async (ctx) => {
    const { h } = ctx
    const file = await generateArchive(h.platform.context)
    const admin = { key: h.keys.admin }
    for (const [method, path, body, options] of [
      ['GET', `/disasterRecoveryFiles/${file.id}`, undefined, admin],
      ['GET', '/disasterRecoveryFiles', undefined, admin],
      ['GET', `/customers?accountNumber=${h.keys.low}`, undefined, admin],
      ['GET', `/customers?key=${h.keys.admin}`, undefined, admin],
      ['GET', '/customers', undefined, { key: null, headers: { authorization: `Bearer ${PASSWORD}` } }],
      ['GET', '/customers', undefined, { key: h.keys.revoked }],
    ] as const) {
      ctx.seen.push(await h.request(method, path, body, options))
    }
    // An unexpected failure whose message holds SQL and a file position.
    // A GET of an item reads its JSON (ListJson.get).
    const reads = h.platform.context.store.listJson
    const get = reads.get
    ;(reads as { get: unknown }).get = async () => {
      throw new Error('select "keyHash" from "api_keys" where 1 -- at /work/main/core/x.ts:12')
    }
    try {
      const failed = await h.request('GET', '/numbers/1')
      assert.is(failed.status, 500)
      ctx.seen.push(failed)
    } finally {
      ;(reads as { get: unknown }).get = get
    }
    const secrets = { keys: [...Object.values(h.keys), ctx.drOnly, ctx.fullNoDr], password: PASSWORD }
    for (const r of ctx.seen) {
      // The API's own answers; the docs page's static files and the encrypted archive are not text of ours.
      if (!(r.headers.get('content-type') ?? '').startsWith('application/json')) continue
      const leak = findLeak(r.text, secrets, '', r.status)
      assert.is(leak, null, `${r.status} ${r.text.slice(0, 200)}`)
    }
    const requests = ctx.lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request')
    assert.ok(requests.length >= ctx.seen.length, `${requests.length} request lines for ${ctx.seen.length} responses`)
    assert.ok(requests.some((e) => e.keyName === 'test-admin' && e.status === 200))
    for (const line of ctx.lines) {
      for (const key of secrets.keys) assert.not.ok(line.includes(key), `a key in the log: ${line.slice(0, 200)}`)
      assert.not.ok(line.includes('tbk_'), `a key prefix in the log: ${line.slice(0, 200)}`)
      assert.not.ok(/authorization|bearer/i.test(line), `an auth header in the log: ${line.slice(0, 200)}`)
      assert.not.ok(line.includes(PASSWORD), `the password in the log: ${line.slice(0, 200)}`)
    }
  })
  test.run()
}
