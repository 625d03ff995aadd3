import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { KyselyJobLeases } from '../adapters/persistence/repositories/kysely-job-leases.js'
import { SystemClock } from '../adapters/persistence/system-clock.js'
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender.js'
import { openPlatform, type Platform } from '../apps/platform/platform.js'
import { catalogue } from '../core/fields/catalogue.js'
import { toWireJson } from '../core/fields/wire-json.js'
import type { Stamp } from '../core/dates/stamp.js'
import { deliverWebhooks } from '../core/webhooks/deliver.js'
import { createWebhook } from '../core/webhooks/webhooks.js'
import { parseArgs, scaled } from './support/args.js'
import { openBenchDatabase } from './support/database.js'
import { log, Report } from './support/report.js'
import { median, percentile } from './support/stats.js'

/**
 * Webhook delivery (contract 12, issue 23): throughput of signed deliveries to a local receiver
 * (>= 1,000 events/s), beside a same-run floor of plain POSTs of the same bodies to the same
 * receiver without the database; and the lag from an event's commit to its arrival at the
 * receiver while events are committed at 200 a second (p99 < 2 s). Delivery runs as the worker's
 * job does (passes of `deliverWebhooks`, 100 ms apart when one found nothing).
 */
const args = parseArgs()
const report = new Report('webhook-delivery', args)
const EVENTS = scaled(20_000, args.scale, 500)
const LAG_SECONDS = Math.max(3, Math.round(15 * args.scale))
const RATE = 200

/** A receiver on 127.0.0.1 that answers 204 and notes when each body arrived. */
async function receiver(onBody: (body: string) => void) {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      onBody(body)
      res.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

function worker(platform: Platform) {
  const leases = new KyselyJobLeases(platform.database.db, platform.database.dialect)
  // The bench's receivers are on 127.0.0.1.
  const sender = new HttpWebhookSender({ allowPrivate: true })
  const clock = new SystemClock()
  return () => deliverWebhooks({ store: platform.context.store, clock, leases, sender }, { holder: 'bench', leaseMs: 60_000 })
}

async function appendEvents(platform: Platform, count: number, data: () => string): Promise<void> {
  const createdStamp = new Date().toISOString() as Stamp
  await platform.context.store.transaction((store) =>
    store.changes.append([], Array.from({ length: count }, () => ({ type: 'customer.updated', data: data(), createdStamp }))),
  )
}

async function throughput(): Promise<{ rate: number; floor: number }> {
  const db = await openBenchDatabase(args.db, args.keep)
  const platform = await openPlatform({ ...db.config, clock: new SystemClock(), allowPrivateWebhooks: true })
  let arrived = 0
  const sink = await receiver(() => arrived++)
  try {
    await createWebhook(platform.context, catalogue.webhooks, { url: sink.url })
    // A customer's JSON as the events carry it, ~3 kB.
    const body = toWireJson(catalogue.customers, await platform.context.store.repository('customers').insert({ accountNumber: 'BENCH-1', companyName: 'Bench Ltd' }))
    await appendEvents(platform, EVENTS, () => body)
    const deliver = worker(platform)
    const started = performance.now()
    while (arrived < EVENTS) await deliver()
    const rate = EVENTS / ((performance.now() - started) / 1000)
    // The floor: POSTs of the same body to the same receiver, one at a time over one kept-alive connection, no database, no signature.
    const floorCount = Math.min(EVENTS, 5_000)
    const before = arrived
    const floorStarted = performance.now()
    const agent = new Agent({ keepAlive: true })
    for (let i = 0; i < floorCount; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = request(sink.url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => res.resume().on('end', resolve))
        req.on('error', reject)
        req.end(body)
      })
    }
    agent.destroy()
    const floor = (arrived - before) / ((performance.now() - floorStarted) / 1000)
    log(`throughput: ${EVENTS} events in order to one webhook at ${Math.round(rate)} events/s; floor (bare POSTs) ${Math.round(floor)}/s`)
    return { rate, floor }
  } finally {
    await sink.close()
    await platform.close()
    await db.dispose()
  }
}

async function lag(): Promise<number[]> {
  const db = await openBenchDatabase(args.db, args.keep)
  const platform = await openPlatform({ ...db.config, clock: new SystemClock(), allowPrivateWebhooks: true })
  const lags: number[] = []
  const sink = await receiver((body) => {
    const sent = (JSON.parse(body) as { data: { committedAt: number } }).data.committedAt
    lags.push(Date.now() - sent)
  })
  try {
    await createWebhook(platform.context, catalogue.webhooks, { url: sink.url })
    const deliver = worker(platform)
    let writing = true
    // The worker's job: passes, 100 ms apart when one delivered nothing.
    const delivering = (async () => {
      while (writing || lags.length < RATE * LAG_SECONDS) {
        const pass = await deliver()
        if (pass.delivered === 0) await new Promise((r) => setTimeout(r, 100))
      }
    })()
    const started = performance.now()
    for (let i = 0; i < RATE * LAG_SECONDS; i++) {
      // One event per transaction, each at its time: 200 a second.
      const due = started + (i * 1000) / RATE
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      // Stamped just before the commit (a little earlier than it, so the lag is if anything overstated).
      await platform.context.store.transaction(async (store) => {
        await store.changes.append([], [{ type: 'customer.updated', data: JSON.stringify({ committedAt: Date.now() }), createdStamp: new Date().toISOString() as Stamp }])
      })
    }
    writing = false
    await delivering
    return lags
  } finally {
    await sink.close()
    await platform.close()
    await db.dispose()
  }
}

const rates: number[] = []
const floors: number[] = []
const p99s: number[] = []
const p50s: number[] = []
for (let run = 0; run < args.runs; run++) {
  const t = await throughput()
  rates.push(t.rate)
  floors.push(t.floor)
  const lags = await lag()
  p99s.push(percentile(lags, 99))
  p50s.push(percentile(lags, 50))
  log(`lag run ${run + 1}: ${lags.length} events at ${RATE}/s, p50 ${Math.round(percentile(lags, 50))} ms, p99 ${Math.round(percentile(lags, 99))} ms, max ${Math.max(...lags)} ms`)
}
report.add({ name: 'delivery throughput to a local receiver', target: '>= 1,000 events/s', measured: median(rates), unit: 'events/s', baseline: median(floors), ratio: median(rates) / median(floors), pass: median(rates) >= 1000, note: `${EVENTS} events in order to one webhook; runs ${rates.map((r) => Math.round(r)).join(', ')}; floor: bare POSTs` })
report.add({ name: `commit-to-delivery lag p99 at ${RATE} events/s`, target: '< 2 s', measured: median(p99s), unit: 'ms', pass: median(p99s) < 2000, note: `p50 ${Math.round(median(p50s))} ms; ${LAG_SECONDS} s per run` })
report.finish()
