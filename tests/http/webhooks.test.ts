import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KyselyJobLeases } from '../../adapters/persistence/repositories/kysely-job-leases.js'
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.js'
import { verifyWebhook } from '../../adapters/webhooks/signature.js'
import { itemActions } from '../../core/actions/action-table.js'
import { eventTypeOf } from '../../core/fields/events.js'
import { deliverWebhooks } from '../../core/webhooks/deliver.js'
import type { WebhookSender } from '../../core/ports/webhook-sender.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

interface Received {
  id: string
  timestamp: string
  signature: string
  body: string
}

/** A real HTTP receiver on 127.0.0.1; `behave` answers each request (status, or 'hang' to never answer in time); `received` holds what it accepted. */
async function receiver(behave: (n: number) => number | 'hang' = () => 204) {
  const received: Received[] = []
  let n = 0
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const how = behave(n++)
      if (how === 'hang') return setTimeout(() => res.writeHead(204).end(), 6000).unref()
      if (how < 300) received.push({ id: String(req.headers['webhook-id']), timestamp: String(req.headers['webhook-timestamp']), signature: String(req.headers['webhook-signature']), body })
      res.writeHead(how).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The sender's timeout stands for the contract's 10 s: long enough for a loaded machine, short enough for a test. */
function worker(h: Harness, sender: WebhookSender = new HttpWebhookSender({ timeoutMs: 3000, allowPrivate: true }), leaseMs = 60_000) {
  const leases = new KyselyJobLeases(h.platform.database.db, h.platform.database.dialect)
  let runs = 0
  return (holder = `test-${++runs}`) => deliverWebhooks({ store: h.platform.context.store, clock: h.clock, leases, sender }, { holder, leaseMs })
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`webhooks [${target}]`)
  test.before.each(async (ctx) => {
    // The receivers listen on 127.0.0.1: private targets are allowed here (tests/security/webhook-targets.test.ts refuses them).
    // The platform's own delivery job waits webhookTimeoutMs (BILLING_WEBHOOK_TIMEOUT_MS) for an answer.
    ctx.h = await openHarness(target, { config: { allowPrivateWebhooks: true, webhookTimeoutMs: 300 } })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test("the platform's delivery job gives up on an attempt after its configured timeout", async ({ h }) => {
    const slow = await receiver(() => 'hang')
    try {
      const hook = (await h.request('POST', '/webhooks', { url: slow.url })).body
      await h.request('POST', '/customers', { accountNumber: 'T-1' })
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      const started = performance.now()
      await scheduler.runNow('webhook-delivery')
      await scheduler.stop()
      const [delivery] = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      assert.is(delivery.status, 'Pending')
      assert.match(delivery.lastError, /no answer within 0\.3 s/)
      assert.ok(performance.now() - started < 5_000, 'not the default 10 s')
    } finally {
      await slow.close()
    }
  })

  test('management: level 5, the secret only in the create response, checked fields', async ({ h }) => {
    const created = await h.request('POST', '/webhooks', { url: 'https://example.com/hook', eventTypes: ['customer.created'] })
    assert.is(created.status, 201)
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/)
    assert.is(created.body.active, true)
    assert.ok(created.headers.get('location')?.endsWith(`/webhooks/${created.body.id}`))
    const read = await h.request('GET', `/webhooks/${created.body.id}`)
    assert.not.ok('secret' in read.body)
    assert.not.ok(JSON.stringify((await h.request('GET', '/webhooks')).body).includes(created.body.secret))
    assert.is((await h.request('GET', '/webhooks', undefined, { key: h.keys.low })).body.error_code, 403101)
    assert.is((await h.request('POST', '/webhooks', { url: 'ftp://x' })).body.error_code, 400101)
    assert.is((await h.request('POST', '/webhooks', {})).body.error_code, 400101)
    assert.is((await h.request('POST', '/webhooks', { url: 'https://x', eventTypes: ['nope'] })).body.error_code, 400101)
    // The event of every item action is one a webhook can ask for (contract 12).
    const actionTypes = Object.entries(itemActions).flatMap(([collection, actions]) => Object.keys(actions).map((a) => eventTypeOf(collection, a)))
    const every = await h.request('POST', '/webhooks', { url: 'https://example.com/actions', eventTypes: actionTypes })
    assert.equal([every.status, every.body.error], [201, undefined], JSON.stringify(actionTypes))
    assert.is((await h.request('DELETE', `/webhooks/${every.body.id}`)).status, 200)
    assert.is((await h.request('PATCH', `/webhooks/${created.body.id}`, { active: false })).body.active, false)
    assert.is((await h.request('DELETE', `/webhooks/${created.body.id}`)).status, 200)
    assert.is((await h.request('GET', `/webhooks/${created.body.id}`)).status, 404)
  })

  test('signed deliveries in event order, only the types asked for; a receiver verifies them', async ({ h }) => {
    const all = await receiver()
    const some = await receiver()
    try {
      const a = (await h.request('POST', '/webhooks', { url: all.url })).body
      const b = (await h.request('POST', '/webhooks', { url: some.url, eventTypes: ['customer.dropped'] })).body
      const c = (await h.request('POST', '/customers', { accountNumber: 'WH-1' })).body
      await h.request('PATCH', `/customers/${c.id}`, { companyName: 'Signed Ltd' })
      await h.request('POST', `/customers/${c.id}?action=drop`, { status: 'Dropped', dateDrop: '2026-01-20' })
      const backlog = async () => Number(/^billing_event_delivery_backlog (\d+)$/m.exec((await h.request('GET', '/metrics')).text)?.[1])
      assert.is(await backlog(), 4, '/metrics: three events for one webhook, one for the other, not yet queued')
      const run = worker(h)
      const pass = await run()
      assert.is(pass.delivered, 4)
      assert.is(await backlog(), 0)
      assert.equal(all.received.map((r) => JSON.parse(r.body).type), ['customer.created', 'customer.updated', 'customer.dropped'])
      assert.equal(some.received.map((r) => JSON.parse(r.body).type), ['customer.dropped'])
      const events = (await h.request('GET', '/events')).body
      assert.equal(all.received.map((r) => r.id), events.map((e: any) => e.id))
      assert.equal(JSON.parse(all.received[2].body), events[2], 'the body is the event as GET /events answers it')
      for (const r of all.received) {
        assert.ok(verifyWebhook(a.secret, r, r.body))
        // The README's receiver, by hand: HMAC-SHA256 keyed with the secret's base64 part.
        const key = Buffer.from(a.secret.slice('whsec_'.length), 'base64')
        const expected = createHmac('sha256', key).update(`${r.id}.${r.timestamp}.${r.body}`).digest('base64')
        assert.is(r.signature, `v1,${expected}`)
        assert.is(Number(r.timestamp), Math.floor(Date.parse(h.clock.now()) / 1000))
      }
      assert.not.ok(verifyWebhook(b.secret, all.received[0], all.received[0].body), 'another secret does not verify')
      assert.is((await run()).delivered, 0, 'delivered once')
      const deliveries = (await h.request('GET', `/webhooks/${a.id}/deliveries`)).body
      assert.equal(deliveries.map((d: any) => [d.status, d.attempts, d.attemptLog[0].statusCode]), [['Delivered', 1, 204], ['Delivered', 1, 204], ['Delivered', 1, 204]])
    } finally {
      await all.close()
      await some.close()
    }
  })

  test('a receiver that fails, times out and recovers gets every event, in order, with backoff', async ({ h }) => {
    // First a 500, then no answer within the sender's timeout, then it works.
    const flaky = await receiver((n) => (n === 0 ? 500 : n === 1 ? 'hang' : 200))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: flaky.url })).body
      await h.request('POST', '/customers', { accountNumber: 'F-1' })
      await h.request('POST', '/customers', { accountNumber: 'F-2' })
      const run = worker(h)
      assert.equal(await run(), { delivered: 0, failed: 1 })
      let [first] = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      assert.is(first.status, 'Pending')
      assert.is(first.lastStatusCode, 500)
      assert.is(first.nextAttemptStamp, '2026-01-15T10:00:05.000Z', 'first retry after 5 s')
      assert.equal(await run(), { delivered: 0, failed: 0 }, 'not before its time, and the second event waits behind it')
      h.clock.advanceMs(5_000)
      assert.equal(await run(), { delivered: 0, failed: 1 })
      ;[first] = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      assert.is(first.lastStatusCode, null)
      assert.match(first.lastError, /no answer within/)
      assert.is(first.nextAttemptStamp, '2026-01-15T10:00:15.000Z', 'then 10 s')
      assert.is((await h.request('GET', `/webhooks/${hook.id}`)).body.failingSince, '2026-01-15T10:00:00.000Z')
      h.clock.advanceMs(10_000)
      assert.equal(await run(), { delivered: 2, failed: 0 })
      assert.equal(flaky.received.map((r) => JSON.parse(r.body).data.accountNumber), ['F-1', 'F-2'])
      const deliveries = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      assert.equal(deliveries.map((d: any) => d.attemptLog.map((x: any) => x.statusCode)), [[500, null, 200], [200]])
      assert.is((await h.request('GET', `/webhooks/${hook.id}`)).body.failingSince, null)
    } finally {
      await flaky.close()
    }
  })

  test('a webhook failing for 3 days is set inactive; made active again it resumes in order', async ({ h }) => {
    let up = false
    const down = await receiver(() => (up ? 200 : 503))
    try {
      const hook = (await h.request('POST', '/webhooks', { url: down.url })).body
      await h.request('POST', '/customers', { accountNumber: 'D-1' })
      const run = worker(h)
      for (let i = 0; i < 40 && (await h.request('GET', `/webhooks/${hook.id}`)).body.active; i++) {
        assert.equal(await run(), { delivered: 0, failed: 1 })
        h.clock.set((await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body[0].nextAttemptStamp)
      }
      const after = (await h.request('GET', `/webhooks/${hook.id}`)).body
      assert.is(after.active, false)
      const [d] = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      const log = d.attemptLog.map((x: any) => Date.parse(x.stamp))
      assert.ok(log.at(-1) - log[0] >= 3 * 24 * 3600 * 1000, 'tried for 3 days')
      for (let i = 2; i < 8; i++) assert.ok(log[i] - log[i - 1] > log[i - 1] - log[i - 2], 'waits longer each time')
      await h.request('POST', '/customers', { accountNumber: 'D-2' })
      up = true
      h.clock.advanceMs(24 * 60 * 60 * 1000)
      assert.equal(await run(), { delivered: 0, failed: 0 }, 'inactive: nothing is sent')
      assert.is((await h.request('PATCH', `/webhooks/${hook.id}`, { active: true })).body.failingSince, null)
      assert.equal((await run()).delivered, 2)
      assert.equal(down.received.map((r) => JSON.parse(r.body).data.accountNumber), ['D-1', 'D-2'])
    } finally {
      await down.close()
    }
  })

  test('several workers at once deliver each event to each webhook once, in order', async ({ h }) => {
    const receivers = await Promise.all([receiver(), receiver(), receiver()])
    try {
      for (const r of receivers) await h.request('POST', '/webhooks', { url: r.url })
      for (let i = 0; i < 30; i++) await h.request('POST', '/customers', { accountNumber: `M-${i}` })
      const workers = [worker(h), worker(h), worker(h)]
      for (let round = 0; round < 5; round++) await Promise.all(workers.map((w, i) => w(`w${i}-${round}`)))
      const events = (await h.request('GET', '/events?limit=1000')).body.map((e: any) => e.id)
      for (const r of receivers) assert.equal(r.received.map((x) => x.id), events)
    } finally {
      await Promise.all(receivers.map((r) => r.close()))
    }
  })

  test('a worker that dies mid-delivery: another delivers it again once the lease lapses, nothing is lost', async ({ h }) => {
    const sink = await receiver()
    try {
      const hook = (await h.request('POST', '/webhooks', { url: sink.url })).body
      await h.request('POST', '/customers', { accountNumber: 'K-1' })
      await h.request('POST', '/customers', { accountNumber: 'K-2' })
      // The first worker's sender posts the first event, then never returns: the process died
      // before it could mark the delivery delivered.
      const real = new HttpWebhookSender({ timeoutMs: 3000, allowPrivate: true })
      let dying: () => void = () => {}
      const dies: WebhookSender = {
        async send(message) {
          await real.send(message)
          return new Promise((resolve) => (dying = () => resolve({ statusCode: null, error: 'killed', durationMs: 0 })))
        },
      }
      // A lease long enough that a loaded machine still asks again within it (CI once took over 300 ms).
      const doomed = worker(h, dies, 1500)('doomed')
      while (sink.received.length === 0) await new Promise((r) => setTimeout(r, 10))
      assert.equal(await worker(h, undefined, 1500)('too-early'), { delivered: 0, failed: 0 }, 'the lease is still held')
      await new Promise((r) => setTimeout(r, 1600))
      assert.equal(await worker(h, undefined, 1500)('survivor'), { delivered: 2, failed: 0 })
      assert.equal(sink.received.map((r) => JSON.parse(r.body).data.accountNumber), ['K-1', 'K-1', 'K-2'], 'K-1 again, then K-2: at least once, in order')
      const deliveries = (await h.request('GET', `/webhooks/${hook.id}/deliveries`)).body
      assert.equal(deliveries.map((d: any) => d.status), ['Delivered', 'Delivered'])
      dying()
      await doomed.catch(() => undefined)
    } finally {
      await sink.close()
    }
  })

  test.run()
}
