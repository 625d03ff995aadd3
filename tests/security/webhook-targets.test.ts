import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { nonPublicKind } from '../../adapters/webhooks/address-ranges.js'
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.js'
import { ResolvingWebhookTargets, type Resolve } from '../../adapters/webhooks/webhook-targets.js'
import { createWebhook } from '../../core/webhooks/webhooks.js'
import { openHarness } from '../support/harness.js'
import { until } from '../support/platform-process.js'
import { startServer } from '../support/server-process.js'
import { activeTargets, type TargetName } from '../support/targets.js'
import { childDatabaseUrl } from '../support/platform-process.js'

/**
 * Issue 49, point 6 (SSRF): webhooks may not reach inside the network unless
 * BILLING_WEBHOOK_ALLOW_PRIVATE=true. The address check, the name check with given DNS
 * answers, the sender's refusal and redirects; then a real server process that refuses such
 * URLs and, for a webhook saved before (or whose name now resolves inside), delivers nothing
 * to a receiver on 127.0.0.1.
 */

/** A receiver on 127.0.0.1 that records every request and answers `status` (with `location`). */
async function receiver(status = 204, location?: string) {
  const paths: string[] = []
  const server: Server = createServer((req, res) => {
    req.resume()
    paths.push(req.url ?? '')
    res.writeHead(status, location ? { location } : {}).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { port, url: `http://127.0.0.1:${port}/hook`, paths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const answers = (table: Record<string, string[]>): Resolve => async (host) => (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
// A secret as a webhook is given one: whsec_ and the base64 of its key (16 bytes at least).
const message = (url: string) => ({ url, secret: `whsec_${Buffer.from('a webhook signing key').toString('base64')}`, id: 'evt_1', timestamp: 1, body: '{}' })

const unit = suite('webhook targets: which addresses are inside')
unit('addresses of every inside range are named; public ones pass', () => {
  const inside: Record<string, string> = {
    '127.0.0.1': 'loopback', '127.255.0.9': 'loopback', '::1': 'loopback', '10.2.3.4': 'private', '172.16.0.1': 'private',
    '172.31.255.255': 'private', '192.168.0.10': 'private', 'fd12::1': 'private', '169.254.169.254': 'link-local',
    'fe80::1': 'link-local', '100.64.0.1': 'carrier-grade NAT', '0.0.0.0': 'unspecified', '::': 'unspecified',
    '::ffff:127.0.0.1': 'loopback', '::ffff:a9fe:a9fe': 'link-local', '64:ff9b::10.0.0.1': 'private', '2002:c0a8:1::': 'private',
    '224.0.0.1': 'multicast', '255.255.255.255': 'reserved',
  }
  for (const [address, kind] of Object.entries(inside)) assert.is(nonPublicKind(address), kind, address)
  for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) assert.is(nonPublicKind(address), null, address)
})

// Audit p8: local-use NAT64, IPv4-translated (SIIT) and Teredo were judged as public IPv6 hosts.
const embedded: readonly (readonly [form: string, inside: string, kind: string, outside: string | null])[] = [
  ['IPv4-compatible', '::7f00:1', 'loopback', '::8.8.8.8'],
  ['IPv4-translated (SIIT)', '::ffff:0:7f00:1', 'loopback', '::ffff:0:8.8.8.8'],
  ['NAT64', '64:ff9b::7f00:1', 'loopback', '64:ff9b::8.8.8.8'],
  ['local-use NAT64 (any prefix length)', '64:ff9b:1::7f00:1', 'local-use NAT64', null],
  ['6to4', '2002:7f00:1::1', 'loopback', '2002:808:808::1'],
  ['Teredo (client inverted)', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ['Teredo (inside server)', '2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private', null],
]
unit('IPv6 forms that carry an IPv4 address are judged as that address', async () => {
  for (const [form, inside, kind, outside] of embedded) {
    assert.is(nonPublicKind(inside), kind, form)
    if (outside) assert.is(nonPublicKind(outside), null, `${form}: ${outside}`)
  }
  const resolve = answers({ 'nat64.example': ['64:ff9b:1::a00:1'], 'siit.example': ['::ffff:0:a9fe:a9fe'], 'teredo.example': ['2001:0:4136:e378:8000:63bf:80ff:fffe'] })
  for (const host of ['nat64.example', 'siit.example', 'teredo.example']) {
    assert.match((await new ResolvingWebhookTargets(false, resolve).refusal(`https://${host}/h`))!, /resolves only to/, host)
    const sent = await new HttpWebhookSender({ resolve }).send(message(`http://${host}/h`))
    assert.match(sent.error!, /^refused: .* resolves only to/, `delivery to ${host}`)
  }
})

unit('a name is refused when every address it resolves to is inside; allowed private targets are not checked', async () => {
  const resolve = answers({ 'inside.example': ['10.0.0.5', '::1'], 'mixed.example': ['10.0.0.5', '93.184.215.14'], 'out.example': ['93.184.215.14'] })
  const targets = new ResolvingWebhookTargets(false, resolve)
  assert.match((await targets.refusal('https://inside.example/h'))!, /inside\.example resolves only to .*10\.0\.0\.5 \(private\)/)
  assert.is(await targets.refusal('https://mixed.example/h'), null, 'some public address: deliveries connect only to it')
  assert.is(await targets.refusal('https://out.example/h'), null)
  assert.is(await targets.refusal('https://unknown.example/h'), null, 'no answer now: each delivery checks again')
  for (const url of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://api.localhost./', 'http://[::ffff:127.0.0.1]/', 'http://0x7f.1/', 'http://2130706433/', 'http://169.254.169.254/latest/meta-data/']) {
    assert.ok(await targets.refusal(url), url)
  }
  assert.is(await new ResolvingWebhookTargets(true, resolve).refusal('http://127.0.0.1/'), null)
})

unit('the sender connects only to checked addresses, and follows no redirect', async () => {
  const sink = await receiver()
  const redirecting = await receiver(307, sink.url)
  try {
    const rebinding = new HttpWebhookSender({ resolve: answers({ 'rebind.example': ['127.0.0.1'] }) })
    const byName = await rebinding.send(message(`http://rebind.example:${sink.port}/hook`))
    assert.is(byName.statusCode, null)
    assert.match(byName.error!, /refused: rebind\.example resolves only to .*127\.0\.0\.1 \(loopback\)/)
    const literal = await new HttpWebhookSender().send(message(sink.url))
    assert.match(literal.error!, /refused: 127\.0\.0\.1 is a loopback address/)
    assert.is(sink.paths.length, 0, 'nothing reached the receiver')

    // Allowed to reach the first hop, a redirect (to 127.0.0.1 here) is a failed attempt, not followed.
    const redirected = await new HttpWebhookSender({ allowPrivate: true }).send(message(redirecting.url))
    assert.equal([redirected.statusCode, redirected.error], [307, 'HTTP 307'])
    assert.is(redirecting.paths.length, 1)
    assert.is(sink.paths.length, 0, 'the redirect was not followed')

    // A secret not ours (a restored archive's 6-byte whsec_c2VjcmV0) signs nothing: a failed attempt naming the rule, not the secret.
    const weak = await new HttpWebhookSender({ allowPrivate: true }).send({ ...message(sink.url), secret: 'whsec_c2VjcmV0' })
    assert.is(weak.statusCode, null)
    assert.match(weak.error!, /^the signing secret must be whsec_ followed by standard base64/)
    assert.not.match(weak.error!, /c2VjcmV0/)
    assert.is(sink.paths.length, 0, 'nothing was sent with a weak key')
  } finally {
    await sink.close()
    await redirecting.close()
  }
})
unit.run()

for (const target of activeTargets()) {
  const http = suite(`webhook targets: IPv6 forms of an inside address over HTTP [${target}]`)
  http('each form is refused with 400101; its public twin and allowed private targets are accepted', async () => {
    const strict = await openHarness(target)
    const open = await openHarness(target, { config: { allowPrivateWebhooks: true } })
    try {
      for (const [form, inside, , outside] of embedded) {
        const refused = await strict.request('POST', '/webhooks', { url: `http://[${inside}]/h` })
        assert.is(refused.body.error_code, 400101, form)
        if (outside) assert.is((await strict.request('POST', '/webhooks', { url: `http://[${outside}]/h` })).status, 201, `${form}: ${outside}`)
        assert.is((await open.request('POST', '/webhooks', { url: `http://[${inside}]/h` })).status, 201, `${form} when allowed`)
      }
    } finally {
      await strict.close()
      await open.close()
    }
  })
  http.run()
}

const fileTargets = activeTargets().filter((t): t is Exclude<TargetName, 'sqlite-memory'> => t !== 'sqlite-memory')
for (const target of fileTargets) {
  const test = suite(`webhook targets: a real server that does not allow private targets [${target}]`)
  test('inside URLs are refused with 400101; a saved one is never delivered to', async () => {
    // The harness plants what the server would refuse: webhooks saved before the check existed.
    const h = await openHarness(target, { config: { allowPrivateWebhooks: true } })
    const drDir = mkdtempSync(join(tmpdir(), 'webhook-targets-dr-'))
    const sink = await receiver()
    const server = startServer({ DATABASE_URL: childDatabaseUrl(h.target), BILLING_SCHEDULER: 'on', BILLING_DR_DIR: drDir, BILLING_WEBHOOK_ALLOW_PRIVATE: 'false', LOG_LEVEL: 'warn' })
    try {
      const base = await server.ready
      const call = async (method: string, path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${h.keys.admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
        return { status: res.status, body: (await res.json()) as any }
      }
      const inside = [sink.url, `http://localhost:${sink.port}/hook`, `http://[::1]:${sink.port}/`, `http://[::ffff:127.0.0.1]:${sink.port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://100.64.0.1/']
      for (const url of inside) {
        const refused = await call('POST', '/webhooks', { url })
        assert.is(refused.status, 400, url)
        assert.is(refused.body.error_code, 400101, url)
        assert.match(refused.body.error, /"url"/, url)
      }
      const resource = h.platform.context.resources.get('webhooks') as Parameters<typeof createWebhook>[1]
      const planted = [sink.url, `http://localhost:${sink.port}/by-name`]
      const ids: string[] = []
      for (const url of planted) ids.push((await createWebhook(h.platform.context, resource, { url })).webhook.id as string)
      const patched = await call('PATCH', `/webhooks/${ids[0]}`, { url: `http://127.0.0.1:${sink.port}/other` })
      assert.is(patched.body.error_code, 400101, 'update is checked too')

      assert.is((await call('POST', '/customers', { accountNumber: 'SSRF-1' })).status, 201)
      const attempts = async (id: string) => ((await call('GET', `/webhooks/${id}/deliveries`, undefined)).body as any[]).flatMap((d) => d.attemptLog ?? [])
      for (const id of ids) await until(`an attempt of webhook ${id}`, async () => (await attempts(id)).length > 0)
      for (const id of ids) assert.match((await attempts(id))[0].error, /refused: .*(loopback|names this machine)/)
      assert.is(sink.paths.length, 0, `the receiver on 127.0.0.1 got nothing: ${sink.paths}`)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
      await sink.close()
      await h.close()
      rmSync(drDir, { recursive: true, force: true })
    }
  })
  test.run()
}
