import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { suite } from 'uvu'
import { catalogue } from '../../core/fields/catalogue.js'
import * as assert from 'uvu/assert'
import { fingerprinter } from '../support/db-fingerprint.js'
import { describe, problemWith, send } from '../support/fuzz-check.js'
import { createFixtures } from '../support/fuzz-fixtures.js'
import { fuzzRequest, type FuzzRequest, type FuzzWorld } from '../support/fuzz-requests.js'
import { oddStrings, sqlStrings, traversalStrings } from '../support/fuzz-values.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets, type TargetName } from '../support/targets.js'

const PASSWORD = 'fuzz-dr-password-5b1c9e'
/** At least this many requests per run, over all targets; Postgres takes a smaller share. */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000)
const share: Record<TargetName, number> = { 'sqlite-memory': 2, 'sqlite-file': 2, postgres: 1 }
const targets = activeTargets()
const shares = targets.reduce((s, t) => s + share[t], 0)
const runsFor = (t: TargetName) => Math.ceil((TOTAL * share[t]) / shares)
const sent: Record<string, number> = {}

interface Ctx {
  h: Harness
  dir: string
  ids: Record<string, string[]>
  /** The last unexpected error the platform logged, for failure messages. */
  logged: { error?: unknown }
}

for (const target of targets) {
  const test = suite<Ctx>(`security fuzz [${target}]`)
  test.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'fuzz-dr-'))
    ctx.logged = {}
    const logger = { debug() {}, info() {}, warn() {}, error: (fields: { err?: Error }) => void (ctx.logged.error = fields.err?.stack) }
    ctx.h = await openHarness(target, { config: { drDir: ctx.dir, drPassword: PASSWORD, logger } })
    ctx.ids = await createFixtures(ctx.h, true)
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('strings with SQL syntax are stored and matched literally', async ({ h }) => {
    const literal = async (s: string) => {
      const created = await h.request('POST', '/customers', { accountNumber: s, companyName: s })
      assert.is(created.status, 201, `${JSON.stringify(s)}: ${created.text}`)
      const found = await h.request('GET', `/customers?accountNumber=${encodeURIComponent(s)}`)
      assert.is(found.status, 200)
      assert.equal(found.body.map((c: any) => [c.id, c.accountNumber, c.companyName]), [[created.body.id, s, s]], JSON.stringify(s))
    }
    for (const s of [...sqlStrings, ...traversalStrings, ...oddStrings.filter(wellFormed)]) await literal(s)
    let n = 0
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).filter(wellFormed), async (s) => literal(`lit${n++}:${s}`)),
      { numRuns: 30 },
    )
  })

  test('hostile requests on every route: no 5xx, contract errors only, nothing stored by a rejection', async (ctx) => {
    const { h, ids } = ctx
    const secrets = { keys: Object.values(h.keys), password: PASSWORD }
    const fingerprint = await fingerprinter(h.platform.database)
    const world = { routes: h.platform.routes, resources: new Map(Object.entries(catalogue)) as FuzzWorld['resources'], presets: h.platform.context.presets, ids }
    const perRoute = new Map<string, number>()
    const statuses: Record<number, number> = {}
    let last = await fingerprint()
    const started = performance.now()
    const runs = runsFor(target)
    await fc.assert(
      fc.asyncProperty(fuzzRequest(world), async (req: FuzzRequest) => {
        h.clock.advanceMs(1) // so that any update moves max(updatedStamp)
        const res = await send(h, req)
        const key = `${req.route.method} ${req.route.path}`
        perRoute.set(key, (perRoute.get(key) ?? 0) + 1)
        statuses[res.status] = (statuses[res.status] ?? 0) + 1
        const problem = problemWith(req, res, secrets)
        if (problem) fail(`${problem}\n${describe(req, res)}${res.status >= 500 ? `\nlogged: ${ctx.logged.error}` : ''}`)
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          const now = await fingerprint()
          if (res.status >= 400 && now !== last) fail(`a rejected request changed the database\n${describe(req, res)}\n${last}\n${now}`)
          last = now
        }
      }),
      { numRuns: runs, endOnFailure: !process.env.FUZZ_SHRINK, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    )
    const seconds = (performance.now() - started) / 1000
    sent[target] = runs
    console.log(`\n  fuzz [${target}]: ${runs} requests over ${perRoute.size} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(statuses)}`)
    const missed = h.platform.routes.map((r) => `${r.method} ${r.path}`).filter((k) => !perRoute.has(k))
    assert.equal(missed, [], 'every route of the table was fuzzed')
  })
  test.run()
}

const total = suite('security fuzz total')
total('at least 10,000 hostile requests over all targets', () => {
  const sum = Object.values(sent).reduce((a, b) => a + b, 0)
  console.log(`\n  fuzz total: ${sum} requests (${JSON.stringify(sent)})`)
  assert.ok(sum >= Math.min(TOTAL, 10_000), `${sum} requests`)
})
total.run()

/** Fails the property, saying why first (fast-check's report shows the request, not the reason). */
function fail(message: string): never {
  console.error(`\n  FUZZ FAILURE: ${message}\n`)
  throw new Error(message)
}

function wellFormed(s: string): boolean {
  return !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)
}
