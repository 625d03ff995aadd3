import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets, type TargetName } from '../support/targets.js'
import { childEntry } from '../support/child-entry.js'

/**
 * Contract 12, "at least once, in event order per webhook", with real processes: the worker
 * (`apps/worker/main.ts`, as `npm run worker` runs it) is SIGKILLed while a receiver on
 * 127.0.0.1 holds one of its deliveries unanswered. A second worker takes the webhook over once
 * the dead one's lease (BILLING_LEASE_MS) lapses and delivers again from the first delivery not
 * marked delivered: nothing is lost, and the receiver sees every event in order after the crash.
 */

const EVENTS = 40
const KILLS = 3
const LEASE_MS = 1_000

interface Received {
  readonly id: string
  readonly worker: number
}

/** A receiver that records each delivery with the worker that sent it, and lets the test kill the sender before answering. */
async function receiver(onDelivery: (id: string) => 'answer' | 'kill') {
  const received: Received[] = []
  let worker = 0
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const id = String(req.headers['webhook-id'])
      received.push({ id, worker })
      if (onDelivery(id) === 'kill') return // never answered: the sender dies with it unmarked
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    nextWorker: () => worker++,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** DATABASE_URL for a child process: the Postgres schema rides in the URL's search_path. */
function childUrl(h: Harness): string {
  const url = h.target.databaseUrl
  if (!h.target.schema) return url
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${h.target.schema}`)}`
}

function startWorker(h: Harness, drDir: string): { process: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...childEntry('apps/worker/main.ts')], {
    env: { ...process.env, DATABASE_URL: childUrl(h), BILLING_LEASE_MS: String(LEASE_MS), BILLING_DR_DIR: drDir, LOG_LEVEL: 'warn', BILLING_WEBHOOK_ALLOW_PRIVATE: 'true' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (c) => (stderr += c))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  void exited.then((code) => {
    if (code !== 0 && code !== null) console.error(`worker exited ${code}: ${stderr.slice(-2000)}`)
  })
  return { process: child, exited }
}

const until = async (what: string, done: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const fileTargets = activeTargets().filter((t): t is Exclude<TargetName, 'sqlite-memory'> => t !== 'sqlite-memory')
for (const target of fileTargets) {
  const test = suite(`crashes: a worker SIGKILLed mid-delivery ${KILLS} times [${target}]`)
  test('each kill leads to a redelivery, not a loss; every event arrives in order after it', async () => {
    const h = await openHarness(target, { config: { allowPrivateWebhooks: true } })
    const drDir = mkdtempSync(join(tmpdir(), 'webhook-kill-dr-'))
    // Kill points spread over the feed: the sender of the k-th delivery of each worker dies.
    const killAt = [3, 11, 25]
    let deliveriesOfWorker = 0
    let worker = 0
    const sink = await receiver(() => (worker < KILLS && ++deliveriesOfWorker === killAt[worker] ? 'kill' : 'answer'))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: sink.url })).body
      for (let i = 0; i < EVENTS; i++) assert.is((await h.request('POST', '/customers', { accountNumber: `WK-${i}` })).status, 201)
      const events = ((await h.request('GET', '/events?limit=1000')).body as any[]).map((e) => e.id)
      assert.is(events.length, EVENTS)
      for (let k = 0; k < KILLS; k++) {
        const w = startWorker(h, drDir)
        await until(`worker ${k}'s delivery ${killAt[k]}`, () => deliveriesOfWorker === killAt[k])
        w.process.kill('SIGKILL')
        assert.is(await w.exited, null, 'killed, not exited')
        worker = sink.nextWorker() + 1
        deliveriesOfWorker = 0
        const pending = (await h.request('GET', `/webhooks/${hook.id}/deliveries?limit=1000`)).body.filter((d: any) => d.status === 'Pending')
        assert.ok(pending.length > 0, 'the dead worker left its unanswered delivery pending')
      }
      const last = startWorker(h, drDir)
      // Nothing can be marked delivered before the receiver has the feed's last event from the
      // last worker: the deliveries are read (over HTTP) only from then, not through its start.
      await until('every delivery marked delivered', async () => {
        if (!sink.received.some((r) => r.worker === KILLS && r.id === events.at(-1))) return false
        const deliveries = (await h.request('GET', `/webhooks/${hook.id}/deliveries?limit=1000`)).body as any[]
        return deliveries.length === EVENTS && deliveries.every((d) => d.status === 'Delivered')
      })
      last.process.kill('SIGTERM')
      assert.is(await last.exited, 0, 'the last worker stops cleanly')

      // Each worker delivers in event order, starting where the marks left off.
      const byWorker = Array.from({ length: KILLS + 1 }, (_, w) => sink.received.filter((r) => r.worker === w).map((r) => r.id))
      for (const [w, ids] of byWorker.entries()) {
        const start = events.indexOf(ids[0])
        assert.ok(start >= 0, `worker ${w} delivered events of the feed`)
        assert.equal(ids, events.slice(start, start + ids.length), `worker ${w} delivered in order`)
        if (w > 0) {
          const killed = byWorker[w - 1].at(-1)!
          assert.ok(start <= events.indexOf(killed), `worker ${w} begins at or before the delivery its predecessor died in`)
        }
        if (w < KILLS) assert.is(ids.length, killAt[w], `worker ${w} was killed in its delivery ${killAt[w]}`)
      }
      assert.equal(byWorker[KILLS].at(-1), events.at(-1), 'the last worker reaches the end of the feed')
      assert.equal([...new Set(sink.received.map((r) => r.id))].sort(), [...events].sort(), 'nothing lost')
    } finally {
      await sink.close()
      await h.close()
      rmSync(drDir, { recursive: true, force: true })
    }
  })
  test.run()
}
