import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const test = suite('crashes: restarting the server during load')

function start(databaseUrl: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), BILLING_SCHEDULER: 'off', BILLING_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (c) => (out += c))
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('Serving') && resolve())
    child.on('exit', () => reject(new Error('server exited')))
  })
  return { child, ready, key: () => /shown only once:\n(\S+)/.exec(out)?.[1] }
}

test('every create that was answered 201 survives a SIGTERM restart under load', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-restart-'))
  const url = `sqlite:${join(dir, 'db.sqlite')}`
  const port = 20000 + Math.floor(Math.random() * 20000)
  const base = `http://127.0.0.1:${port}/backend/api/v1`
  try {
    const first = start(url, port)
    await first.ready
    const key = first.key()!
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const accepted: string[] = []
    let refused = 0
    let stop = false
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const accountNumber = `R-${n}-${i}`
        try {
          const r = await fetch(`${base}/customers`, { method: 'POST', headers, body: JSON.stringify({ accountNumber }) })
          if (r.status === 201) accepted.push(accountNumber)
          await r.arrayBuffer()
        } catch {
          refused++
          await new Promise((r) => setTimeout(r, 20))
        }
      }
    }
    const clients = Array.from({ length: 8 }, (_, n) => client(n))
    await new Promise((r) => setTimeout(r, 700))
    first.child.kill('SIGTERM')
    await new Promise((r) => first.child.on('exit', r))
    const second = start(url, port)
    await second.ready
    await new Promise((r) => setTimeout(r, 500))
    stop = true
    await Promise.all(clients)
    let missing = 0
    for (const accountNumber of accepted) {
      const r = await fetch(`${base}/customers?accountNumber=${accountNumber}`, { headers })
      if (((await r.json()) as unknown[]).length !== 1) missing++
    }
    second.child.kill('SIGTERM')
    await new Promise((r) => second.child.on('exit', r))
    console.log(`  [restart] ${accepted.length} creates accepted across the restart, ${refused} refused while it was down, ${missing} lost`)
    assert.ok(accepted.length > 20)
    assert.is(missing, 0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()
