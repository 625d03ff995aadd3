import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../support/server-process.js'
import { childEntry } from '../support/child-entry.js'

const test = suite<{ dir: string }>('apps: server process, API key CLI, worker')
test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'billing-app-'))
})
test.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }))

test('first start prints the admin key once; it works; SIGTERM stops cleanly; the second start prints none', async ({ dir }) => {
  const env = { DATABASE_URL: `sqlite:${join(dir, 'first.sqlite')}` }
  const first = startServer(env)
  const base = await first.ready
  const key = /shown only once:\n(\S+)/.exec(first.out())?.[1]
  assert.ok(key, first.out())
  const ok = await fetch(`${base}/customers`, { headers: { authorization: `Bearer ${key}` } })
  assert.is(ok.status, 200)
  assert.is((await fetch(`${base}/customers`)).status, 401)
  assert.is((await fetch(`${base.replace('/backend/api/v1', '')}/healthz`)).status, 200)
  first.child.kill('SIGTERM')
  assert.is(await first.exited, 0)
  assert.not.ok(first.err().includes(key!), 'the key never reaches the logs')
  const second = startServer(env)
  await second.ready
  assert.not.ok(/shown only once/.test(second.out()))
  second.child.kill('SIGINT')
  assert.is(await second.exited, 0)
})

test('usage files over a real socket: read as they arrive; a bad row answers 400 while the client still sends', async ({ dir }) => {
  const server = startServer({ DATABASE_URL: `sqlite:${join(dir, 'usage.sqlite')}` })
  try {
    const base = await server.ready
    const key = /shown only once:\n(\S+)/.exec(server.out())?.[1]
    const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n'
    const rows = (count: number, bad = -1) =>
      Array.from({ length: count }, (_, i) => (i === bad ? 'x,y,not-a-time,1,MOB,mobile,Gamma\n' : `01632960001,0770${String(i).padStart(7, '0')},2026-01-14T10:00:00Z,${1 + (i % 600)},MOB,mobile,Gamma\n`)).join('')
    const post = (body: string) =>
      fetch(`${base}/usageFiles/?name=calls.csv`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body })
    const good = await post(header + rows(40_000))
    assert.is(good.status, 201)
    assert.equal((await good.json()).imported, 40_000)
    const bad = await post(header + rows(40_000, 20_000))
    assert.is(bad.status, 400)
    const error = await bad.json()
    assert.is(error.error_code, 400101)
    assert.match(error.error, /line 20002/)
    const after = await fetch(`${base}/usageFiles`, { headers: { authorization: `Bearer ${key}` } })
    assert.equal((await after.json()).map((f: { imported: number }) => f.imported), [40_000], 'the bad file left nothing behind')
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('the API key CLI: create prints the key alone; list; revoke is immediate', async ({ dir }) => {
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}` }
  // The source, so the test needs no build; tests/apps/package.test.ts runs `npm run apikey` on a production install.
  const run = (...args: string[]) => spawnSync(process.execPath, [...childEntry('apps/cli/apikey.ts'), ...args], { env, encoding: 'utf8' })
  const created = run('create', '--name', 'ops', '--expert-level', '3', '--permission', 'dataProtectionDownload')
  assert.is(created.status, 0, created.stderr)
  assert.match(created.stdout, /^tbk_[\w-]{32}\n$/)
  const listed = run('list')
  assert.match(listed.stdout, /^ops\texpert level 3\tdataProtectionDownload\tactive/m)
  assert.not.ok(listed.stdout.includes(created.stdout.trim()), 'the secret is never listed')
  assert.is(run('create', '--name', 'ops').status, 1, 'names are unique')
  assert.is(run('create', '--name', 'x', '--expert-level', '9').status, 1)
  assert.is(run('revoke', '--name', 'ops').status, 0)
  assert.match(run('list').stdout, /^ops\t.*revoked/m)
  assert.is(run('bogus').status, 2)
})

test('a bad presets file stops the server with a clear message', async ({ dir }) => {
  const file = join(dir, 'presets.json')
  writeFileSync(file, JSON.stringify({ lists: { nosuch: ['x'] } }))
  const s = startServer({ DATABASE_URL: `sqlite:${join(dir, 'p.sqlite')}`, BILLING_PRESETS_FILE: file })
  s.ready.catch(() => {})
  assert.is(await s.exited, 1)
  assert.match(s.err(), /nosuch/)
})

test('the worker starts and stops on SIGTERM', async ({ dir }) => {
  const child = spawn(process.execPath, [...childEntry('apps/worker/main.ts')], {
    env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'w.sqlite')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', (c) => (err += c))
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(err)), 20_000)
    child.stderr.on('data', () => {
      if (err.includes('worker-started')) {
        clearTimeout(t)
        resolve()
      }
    })
  })
  child.kill('SIGTERM')
  const code = await new Promise((resolve) => child.on('exit', resolve))
  assert.is(code, 0)
})

test.run()
