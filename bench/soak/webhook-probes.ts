import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Soak probes for issue 49's webhook points, each answering whether the running server held.
 * `baseUrl` is the API's base (`http://host:port/backend/api/v1`), `key` an expert-level-5 key.
 * `webhookProbes` expect the default settings; `privateWebhookProbes` need receivers on
 * 127.0.0.1, so a server started with BILLING_WEBHOOK_ALLOW_PRIVATE=true and its scheduler on.
 */
export interface Probe {
  readonly name: string
  run(baseUrl: string, key: string): Promise<'held' | 'broke'>
}

const call = async (baseUrl: string, key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: (await res.json().catch(() => null)) as any }
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }
}

const waitFor = async (done: () => boolean, ms: number) => {
  const end = Date.now() + ms
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
  return done()
}

/** Point 6: inside URLs are refused when saved (each with 400101); none may be created. */
const insideUrls: Probe = {
  name: 'webhook URLs pointing inside are refused',
  async run(baseUrl, key) {
    const urls = ['http://127.0.0.1:9/hook', 'http://localhost:9/', 'http://[::ffff:127.0.0.1]/', 'http://0x7f.1/', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://100.64.0.1/', 'http://[fd00:ec2::254]/']
    let held = true
    for (const url of urls) {
      const answer = await call(baseUrl, key, 'POST', '/webhooks', { url })
      if (answer.status === 201) await call(baseUrl, key, 'DELETE', `/webhooks/${answer.body.id}`)
      if (answer.body?.error_code !== 400101) held = false
    }
    return held ? 'held' : 'broke'
  },
}

/** Point 7: beside a receiver that never answers, a healthy one gets new events while the hanging request is still open. */
const hangingReceiver: Probe = {
  name: 'a hanging webhook receiver delays only itself',
  async run(baseUrl, key) {
    let open = 0
    const hanging = await listen((req, res) => {
      open += 1
      req.resume()
      res.on('close', () => (open -= 1))
    })
    let got = 0
    const healthy = await listen((req, res) => {
      req.resume()
      req.on('end', () => {
        got += 1
        res.writeHead(204).end()
      })
    })
    const ids: string[] = []
    try {
      for (const url of [hanging.url, healthy.url]) {
        const created = await call(baseUrl, key, 'POST', '/webhooks', { url, eventTypes: ['customer.created'] })
        if (created.status !== 201) throw new Error(`cannot create a webhook to 127.0.0.1 (${created.status}): start the server with BILLING_WEBHOOK_ALLOW_PRIVATE=true`)
        ids.push(created.body.id)
      }
      const customer = () => call(baseUrl, key, 'POST', '/customers', { accountNumber: `SOAK-WH-${randomUUID().slice(0, 8)}` })
      await customer()
      if (!(await waitFor(() => open === 1 && got === 1, 30_000))) return 'broke'
      for (let i = 0; i < 3; i++) await customer()
      // Within the sender's 10 s timeout: the hanging request must still be open when they arrive.
      const arrived = await waitFor(() => got === 4, 8_000)
      return arrived && open === 1 ? 'held' : 'broke'
    } finally {
      for (const id of ids) await call(baseUrl, key, 'DELETE', `/webhooks/${id}`)
      hanging.server.closeAllConnections()
      for (const { server } of [hanging, healthy]) await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  },
}

export const webhookProbes: readonly Probe[] = [insideUrls]
export const privateWebhookProbes: readonly Probe[] = [hangingReceiver]
