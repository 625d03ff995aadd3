import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { eventually, rawClient, requestHead } from '../support/raw-http.js'
import { serveTarget, type ServedTarget } from '../support/served-target.js'
import { startServer } from '../support/server-process.js'
import { activeTargets } from '../support/targets.js'

/**
 * Idempotency-Key across a crash and on large uploads (issue 49), with real server processes on
 * a SQLite file and on Postgres: a claim is a lease (BILLING_LEASE_MS, small here), so a request
 * killed mid-way (SIGKILL) leaves its key to the retry, which runs it; a usage file over 1 MiB
 * carries a key, fingerprinted by its digest as it streams.
 */
const LEASE_MS = '600'
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `016329${String(from + i).padStart(5, '0')},07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma\n`).join('')

for (const name of activeTargets().filter((t) => t !== 'sqlite-memory')) {
  const test = suite<{ s: ServedTarget }>(`Idempotency-Key across a crash and on large uploads [${name}]`)
  test.before(async (ctx) => {
    ctx.s = await serveTarget(name, { BILLING_LEASE_MS: LEASE_MS })
  })
  test.after(async (ctx) => {
    await ctx.s?.close()
  })
  const upload = (s: ServedTarget, key: string, body: string, file = 'calls.csv') =>
    fetch(`${s.base}/usageFiles?name=${file}`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv', 'idempotency-key': key }, body })

  test('a request killed mid-way leaves its key to the retry, which runs it (not 409004 for 24 hours)', async ({ s }) => {
    // A second server on the same database, killed while its import reads the body.
    const victim = startServer({ DATABASE_URL: s.url, BILLING_LEASE_MS: LEASE_MS, BILLING_RATE_LIMIT: '0' })
    try {
      const port = Number(new URL(await victim.ready).port)
      const body = `${header}\n${rows(2000)}`
      const client = await rawClient(port)
      const head = { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv', 'content-length': body.length, 'idempotency-key': 'crash-1' }
      await client.send(requestHead('POST', '/backend/api/v1/usageFiles?name=crash.csv', head))
      await client.send(body.slice(0, body.length / 2))
      const claimed = async () => (await s.database.db.selectFrom('idempotency_keys').select('status').where('key', '=', 'crash-1').execute()).length === 1
      await eventually('the victim claims the key', claimed)
      victim.child.kill('SIGKILL')
      await victim.exited
      const retry = await upload(s, 'crash-1', body, 'crash.csv')
      const created = await retry.json()
      assert.is(retry.status, 201, JSON.stringify(created))
      assert.is(created.imported, 2000)
      const again = await upload(s, 'crash-1', body, 'crash.csv')
      assert.is(again.status, 201)
      assert.is(again.headers.get('idempotent-replayed'), 'true')
      assert.equal(await again.json(), created)
    } finally {
      if (victim.child.exitCode === null && victim.child.signalCode === null) victim.child.kill('SIGKILL')
    }
  })

  test('a usage file over 1 MiB carries a key: run once, replayed, and another file with the key is 409004', async ({ s }) => {
    const body = `${header}\n${rows(20_000, 10_000)}`
    assert.ok(body.length > 1024 * 1024)
    const first = await upload(s, 'big-1', body, 'big.csv')
    const created = await first.json()
    assert.is(first.status, 201, JSON.stringify(created))
    assert.is(created.imported, 20_000)
    const again = await upload(s, 'big-1', body, 'big.csv')
    assert.is(again.status, 201)
    assert.is(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(await again.json(), created)
    const other = await upload(s, 'big-1', `${header}\n${rows(20_000, 50_000)}`, 'big.csv')
    assert.is(other.status, 409)
    assert.is((await other.json()).error_code, 409004)
    const files = await (await fetch(`${s.base}/usageFiles?limit=1000`, { headers: { authorization: `Bearer ${s.key}` } })).json()
    assert.is(files.filter((f: { name: string }) => f.name === 'big.csv').length, 1, 'imported once')
  })

  test.run()
}
