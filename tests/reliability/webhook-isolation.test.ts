import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness } from '../support/harness.js'
import { startWorkerProcess, until } from '../support/platform-process.js'
import { activeTargets, type TargetName } from '../support/targets.js'

/**
 * Issue 49, point 7: a receiver that never answers delays only its own webhook. A real worker
 * (`npm run worker`) delivers to two receivers on 127.0.0.1: one holds its first request open
 * and never answers, the other answers at once. Events made while the first request hangs
 * must reach the healthy receiver, in order, while that request is still open and its
 * delivery still pending. (A delivery pass that waited for every webhook held them until the
 * hanging attempt timed out, 10 s later, and that timeout closed the request.)
 */

const LATER = 5

/** A receiver that takes each request and never answers it; notes when the sender gives up on one. */
async function hangingReceiver() {
  const server: Server = createServer((req, res) => {
    state.requests += 1
    state.open += 1
    req.resume()
    // The response closes only with its connection: when the sender gives up on the attempt.
    res.on('close', () => (state.open -= 1))
  })
  const state = { requests: 0, open: 0 }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`,
    state,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function healthyReceiver() {
  const ids: string[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ok`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const fileTargets = activeTargets().filter((t): t is Exclude<TargetName, 'sqlite-memory'> => t !== 'sqlite-memory')
for (const target of fileTargets) {
  const test = suite(`webhooks: a hanging receiver beside a healthy one, real worker [${target}]`)
  test('the healthy webhook is delivered, in order, while the hanging one is still waiting', async () => {
    // The receivers are on 127.0.0.1: private targets are allowed for this worker.
    const h = await openHarness(target, { config: { allowPrivateWebhooks: true } })
    const drDir = mkdtempSync(join(tmpdir(), 'webhook-isolation-dr-'))
    const hanging = await hangingReceiver()
    const healthy = await healthyReceiver()
    // The hanging attempt must outlast the test: at the contract's 10 s a loaded machine saw it
    // time out (and its delivery leave Pending) before the count below.
    const worker = startWorkerProcess(h.target, { BILLING_DR_DIR: drDir, BILLING_WEBHOOK_ALLOW_PRIVATE: 'true', BILLING_WEBHOOK_TIMEOUT_MS: '600000' })
    try {
      const slow = (await h.request('POST', '/webhooks', { url: hanging.url })).body
      const fine = (await h.request('POST', '/webhooks', { url: healthy.url })).body
      assert.is((await h.request('POST', '/customers', { accountNumber: 'HANG-0' })).status, 201)
      await until('the first event at both receivers', () => hanging.state.open === 1 && healthy.ids.length === 1)

      // Made while the hanging receiver holds its request: only the healthy webhook may get them now.
      for (let i = 1; i <= LATER; i++) assert.is((await h.request('POST', '/customers', { accountNumber: `HANG-${i}` })).status, 201)
      const events = ((await h.request('GET', '/events?limit=1000')).body as { id: string }[]).map((e) => e.id)
      await until('every event at the healthy receiver', () => healthy.ids.length >= events.length)

      assert.is(hanging.state.open, 1, 'the hanging request is still open: the healthy deliveries did not wait for it')
      assert.is(hanging.state.requests, 1, 'the hanging webhook is still at its first event')
      assert.equal(healthy.ids, events, 'every event once, in event order')
      const pendingOf = async (id: string) =>
        ((await h.request('GET', `/webhooks/${id}/deliveries?limit=1000`)).body as { status: string }[]).filter((d) => d.status === 'Pending').length
      await until('the healthy deliveries marked delivered', async () => (await pendingOf(fine.id)) === 0)
      assert.is(await pendingOf(slow.id), events.length, 'the hanging webhook has every delivery pending, the first in flight')

      // Cut the hanging request (the attempt fails at once), then a clean stop.
      await hanging.close()
      worker.process.kill('SIGTERM')
      assert.is(await worker.exited, 0, `the worker stops cleanly: ${worker.stderr()}`)
    } finally {
      worker.process.kill('SIGKILL')
      await hanging.close().catch(() => {})
      await healthy.close()
      await h.close()
      rmSync(drDir, { recursive: true, force: true })
    }
  })
  test.run()
}
