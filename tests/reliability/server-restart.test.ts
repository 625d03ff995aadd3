import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { childEntry } from '../support/child-entry.js'

const test = suite('crashes: restarting the server during load')

/** The server on a port of the system's choosing (PORT=0): `ready` is the base URL it reports. */
function start(databaseUrl: string) {
  const child = spawn(process.execPath, [...childEntry('apps/server/main.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', BILLING_SCHEDULER: 'off', BILLING_RATE_LIMIT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c) => (out += c))
  // Read, or the log lines fill the pipe and the server blocks on its next one.
  child.stderr.on('data', (c) => (err = (err + c).slice(-4000)))
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const url = /Serving (http:\/\/\S+)/.exec(out)?.[1]
      if (url) resolve(url)
    })
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)))
  })
  return { child, ready, key: () => /shown only once:\n(\S+)/.exec(out)?.[1] }
}

test('every create that was answered 201 survives a SIGTERM restart under load', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'billing-restart-'))
  const url = `sqlite:${join(dir, 'db.sqlite')}`
  try {
    const first = start(url)
    let base = await first.ready
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
    const second = start(url)
    // Clients move to the new port, as they would behind a load balancer.
    base = await second.ready
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
