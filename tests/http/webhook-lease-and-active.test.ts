import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KyselyJobLeases } from '../../adapters/persistence/repositories/kysely-job-leases.js'
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.js'
import type { WebhookResponse, WebhookSender } from '../../core/ports/webhook-sender.js'
import { deliverWebhooks } from '../../core/webhooks/deliver.js'
import { openHarness, type Harness } from '../support/harness.js'
import { until } from '../support/platform-process.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 12 and the README's webhook promises, as the worker writes them: one holder of a
 * webhook at a time even when a batch outlasts the lease (each delivery marked as it is answered,
 * the lease renewed after each attempt, a holder whose lease was taken stops), the `active`
 * switch left to the operator (the worker only ever switches a webhook off, on giving up after 3
 * days), and a webhook switched on again delivered at once.
 */

/** Short, so that a batch outlasts it; still far longer than one attempt on a loaded machine. */
const LEASE_MS = 1_500
const DAY_MS = 24 * 60 * 60 * 1000

/** A receiver on 127.0.0.1 noting each POST's `Webhook-Id` as it arrives; `answer` gives its status. */
async function receiver(answer: (id: string) => number | Promise<number> = () => 204) {
  const ids: string[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', async () => {
      const id = String(req.headers['webhook-id'])
      ids.push(id)
      res.writeHead(await answer(id)).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { url, ids, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const realSender = () => new HttpWebhookSender({ timeoutMs: 5_000, allowPrivate: true })

/** One pass of a worker named `holder`, as the delivery job runs it. */
function pass(h: Harness, holder: string, sender: WebhookSender = realSender()) {
  const leases = new KyselyJobLeases(h.platform.database.db, h.platform.database.dialect)
  return deliverWebhooks({ store: h.platform.context.store, clock: h.clock, leases, sender }, { holder, leaseMs: LEASE_MS })
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`webhooks: leases and the active switch [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { config: { allowPrivateWebhooks: true } })
  })
  test.after.each(async (ctx) => ctx.h.close())

  const eventIDs = async (h: Harness): Promise<string[]> => (await h.request('GET', '/events?limit=1000')).body.map((e: any) => e.id)
  const deliveries = async (h: Harness, id: string): Promise<any[]> => (await h.request('GET', `/webhooks/${id}/deliveries?limit=1000`)).body
  const webhook = async (h: Harness, id: string) => (await h.request('GET', `/webhooks/${id}`)).body

  test('a batch longer than the lease: its holder keeps the webhook, each event arrives once, in order', async ({ h }) => {
    // 100 ms an answer: 30 deliveries take 3 s, twice the lease.
    const slow = await receiver(() => new Promise((resolve) => setTimeout(() => resolve(204), 100)))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: slow.url })).body
      for (let i = 0; i < 30; i++) assert.is((await h.request('POST', '/customers', { accountNumber: `L-${i}` })).status, 201)
      const first = pass(h, 'A')
      // 20 answers take at least 2 s: longer than the lease A took at its start.
      await until('20 deliveries at the receiver', () => slow.ids.length >= 20)
      assert.equal(await pass(h, 'B'), { delivered: 0, failed: 0 }, 'A still holds the webhook: it renews the lease as it goes')
      assert.equal(await first, { delivered: 30, failed: 0 })
      assert.equal(slow.ids, await eventIDs(h), 'each event once, in event order')
      assert.ok((await deliveries(h, hook.id)).every((d) => d.status === 'Delivered' && d.attempts === 1))
    } finally {
      await slow.close()
    }
  })

  test('a worker killed mid-batch: its answered deliveries are marked as it goes, so only the rest is sent again', async ({ h }) => {
    // 100 ms an answer: by the 20th send at least 2 s have passed, more than the lease.
    const sink = await receiver(() => new Promise((resolve) => setTimeout(() => resolve(204), 100)))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: sink.url })).body
      for (let i = 0; i < 25; i++) await h.request('POST', '/customers', { accountNumber: `K-${i}` })
      const events = await eventIDs(h)
      // The 20th send reaches the receiver, then its worker hangs there: killed, as far as the lease knows.
      const real = realSender()
      let sends = 0
      let revive: (r: WebhookResponse) => void = () => {}
      const diesOn20th: WebhookSender = {
        async send(message) {
          if (++sends < 20) return real.send(message)
          await real.send(message)
          return new Promise((resolve) => (revive = resolve))
        },
      }
      const doomed = pass(h, 'doomed', diesOn20th)
      await until('the 20th delivery at the receiver', () => sink.ids.length === 20)
      const marked = (await deliveries(h, hook.id)).filter((d) => d.status === 'Delivered').length
      assert.ok(marked > 0 && marked < 20, `answered deliveries marked before the lease could lapse (${marked})`)
      // Waiting for a deadline: any delay past it does as well.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 500))
      assert.equal(await pass(h, 'survivor'), { delivered: 25 - marked, failed: 0 })
      assert.equal(sink.ids, [...events.slice(0, 20), ...events.slice(marked)], 'the survivor sends from the first delivery not marked, in order')
      revive({ statusCode: 204, error: null, durationMs: 1 })
      await doomed
      assert.is(sink.ids.length, 45 - marked, 'the revived worker sends nothing more')
      assert.ok((await deliveries(h, hook.id)).every((d) => d.status === 'Delivered'))
    } finally {
      await sink.close()
    }
  })

  test('a worker whose lease was taken during an attempt stops: it sends nothing more and records no failure', async ({ h }) => {
    const x = await receiver()
    const y = await receiver()
    try {
      const hookX = (await h.request('POST', '/webhooks', { url: x.url })).body
      const hookY = (await h.request('POST', '/webhooks', { url: y.url })).body
      for (let i = 0; i < 3; i++) await h.request('POST', '/customers', { accountNumber: `T-${i}` })
      const events = await eventIDs(h)
      // A's first attempt to each webhook outlasts the lease: to X it is posted (answered 204
      // late), to Y it fails once B has taken over.
      const real = realSender()
      const releases = new Map<string, (r: WebhookResponse) => void>()
      const slowFirst: WebhookSender = {
        async send(message) {
          if (releases.has(message.url)) return real.send(message)
          if (message.url === x.url) await real.send(message)
          return new Promise((resolve) => releases.set(message.url, resolve))
        },
      }
      const stale = pass(h, 'A', slowFirst)
      await until('both first attempts in flight', () => releases.size === 2)
      // Waiting for a deadline: any delay past it does as well.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 500))
      assert.equal(await pass(h, 'B'), { delivered: 6, failed: 0 }, 'B takes both webhooks over once the leases lapse')
      releases.get(x.url)!({ statusCode: 204, error: null, durationMs: LEASE_MS })
      releases.get(y.url)!({ statusCode: null, error: 'no answer', durationMs: LEASE_MS })
      await stale

      assert.equal(x.ids, [events[0], ...events], "A's late first attempt, then B's: A sent nothing after losing the lease")
      assert.equal(y.ids, events)
      const ofY = await deliveries(h, hookY.id)
      assert.equal(
        ofY.map((d) => [d.status, d.attemptLog.length]),
        events.map(() => ['Delivered', 1]),
        "A's failed attempt is not recorded over B's delivery",
      )
      assert.is((await webhook(h, hookY.id)).failingSince, null, 'nor does it make the webhook failing')
      assert.ok((await deliveries(h, hookX.id)).every((d) => d.status === 'Delivered'))
    } finally {
      await x.close()
      await y.close()
    }
  })

  test('the worker never switches a webhook on: switched off during an attempt, failed or answered, it stays off', async ({ h }) => {
    let status = 500
    let id = ''
    const switchedOff: boolean[] = []
    // The operator switches the webhook off while the receiver holds the attempt.
    const sink = await receiver(async () => {
      switchedOff.push((await h.request('PATCH', `/webhooks/${id}`, { active: false })).body.active === false)
      return status
    })
    try {
      id = (await h.request('POST', '/webhooks', { url: sink.url })).body.id
      await h.request('POST', '/customers', { accountNumber: 'S-1' })
      assert.equal(await pass(h, 'w1'), { delivered: 0, failed: 1 })
      let after = await webhook(h, id)
      assert.equal([after.active, after.failingSince], [false, '2026-01-15T10:00:00.000Z'], 'off after a failed attempt')

      assert.is((await h.request('PATCH', `/webhooks/${id}`, { active: true })).body.active, true)
      h.clock.advanceMs(60_000)
      status = 204
      assert.equal(await pass(h, 'w2'), { delivered: 1, failed: 0 })
      after = await webhook(h, id)
      assert.equal([after.active, after.failingSince], [false, null], 'off after an answered retry, no longer failing')
      assert.equal(switchedOff, [true, true])
    } finally {
      await sink.close()
    }
  })

  test('given up 3 days after its first failure; switched on again, its deliveries go at once, in order', async ({ h }) => {
    let up = false
    const sink = await receiver(() => (up ? 204 : 503))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: sink.url })).body
      await h.request('POST', '/customers', { accountNumber: 'G-1' })
      for (let i = 0; i < 40 && (await webhook(h, hook.id)).active; i++) {
        assert.equal(await pass(h, `w${i}`), { delivered: 0, failed: 1 })
        const [d] = await deliveries(h, hook.id)
        if ((await webhook(h, hook.id)).active) h.clock.set(d.nextAttemptStamp)
      }
      const [d] = await deliveries(h, hook.id)
      const log = d.attemptLog.map((x: any) => Date.parse(x.stamp))
      assert.is(log.at(-1) - log[0], 3 * DAY_MS, 'the last attempt 3 days after the first, not later')
      assert.equal([(await webhook(h, hook.id)).active, (await webhook(h, hook.id)).failingSince], [false, d.attemptLog[0].stamp])

      await h.request('POST', '/customers', { accountNumber: 'G-2' })
      up = true
      h.clock.advanceMs(60_000) // a minute later: the last backoff (12 h) has long to run
      assert.equal(await pass(h, 'off'), { delivered: 0, failed: 0 }, 'off: nothing is sent')
      assert.is((await h.request('PATCH', `/webhooks/${hook.id}`, { active: true })).body.failingSince, null)
      assert.equal(await pass(h, 'on'), { delivered: 2, failed: 0 }, 'delivered at once, not after the old backoff')
      const events = await eventIDs(h)
      assert.equal(sink.ids.slice(-2), events)
    } finally {
      await sink.close()
    }
  })

  test.run()
}
