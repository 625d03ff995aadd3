import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { eventually, queuedToClient, rawClient, requestHead, stillEstablished } from '../support/raw-http.js'
import { idleInTransaction, serveTarget, type ServedTarget } from '../support/served-target.js'
import { activeTargets } from '../support/targets.js'

/**
 * Hostile clients against a real server process, on a SQLite file and on Postgres (issue 49):
 * none of them may wedge, starve or leak the server. The limits are set small through the
 * environment, so each case takes about one of them; waits are bounded guards, not speed limits.
 */
const LIMITS = {
  BILLING_REQUEST_TIMEOUT_MS: '2500',
  BILLING_BODY_TIMEOUT_MS: '1000',
  BILLING_HEADERS_TIMEOUT_MS: '1000',
  BILLING_IDLE_TIMEOUT_MS: '1000',
  BILLING_SEND_TIMEOUT_MS: '500',
  BILLING_MAX_CONNECTIONS: '40',
}
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `0163296${String(from + i).padStart(4, '0')},07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma\n`).join('')

for (const name of activeTargets().filter((t) => t !== 'sqlite-memory')) {
  const test = suite<{ s: ServedTarget }>(`hostile clients against a server process [${name}]`)
  test.before(async (ctx) => {
    ctx.s = await serveTarget(name, LIMITS).catch((e) => {
      console.error(`[${name}] server did not start`, e)
      throw e
    })
  })
  test.after(async (ctx) => {
    await ctx.s?.close()
  })
  const get = (s: ServedTarget, path: string, auth = `Bearer ${s.key}`) => fetch(`${s.base.replace('/backend/api/v1', '')}${path}`, { headers: { authorization: auth } })

  test('a usage import whose client stops sending ends with its request: one 408, its transaction rolled back, the server answering', async ({ s }) => {
    const client = await rawClient(s.port)
    const body = `${header}\n${rows(3000)}`
    await client.send(requestHead('POST', '/backend/api/v1/usageFiles?name=stalled.csv', { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv', 'content-length': body.length * 4 }))
    await client.send(body)
    // The client sends nothing more: the import waits inside its transaction until its request ends.
    await client.closed
    assert.equal(client.statuses(), [408], client.received())
    assert.match(client.received(), /"error_code":408001/)
    if (name === 'postgres') await eventually('no connection of the server left idle in transaction', async () => (await idleInTransaction(s.database, s.server.child.pid!)) === 0, 10_000)
    const health = await get(s, '/healthz')
    assert.is(health.status, 200, 'a SQLite file is not held by the abandoned import')
    const files = await (await get(s, '/backend/api/v1/usageFiles')).json()
    assert.ok(!files.some((f: { name: string }) => f.name === 'stalled.csv'), 'nothing of the stalled file was kept')
    const ok = await fetch(`${s.base}/usageFiles?name=after.csv`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv' }, body: `${header}\n${rows(3)}` })
    assert.is(ok.status, 201, 'the next import runs')
  })

  test('a JSON body sent a byte at a time past the deadline answers 408 once, with the contract body, and the connection closes', async ({ s }) => {
    const client = await rawClient(s.port)
    const body = JSON.stringify({ accountNumber: 'SLOW-BODY-1', lastname: 'Slow' }).padEnd(200, ' ')
    await client.send(requestHead('POST', '/backend/api/v1/customers', { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'content-length': body.length }))
    // A byte every 100 ms: never a pause as long as the body timeout, never done before the deadline.
    let sent = 0
    while (sent < body.length && (await client.send(body[sent]))) {
      sent++
      await new Promise((r) => setTimeout(r, 100))
    }
    await client.closed
    assert.equal(client.statuses(), [408], client.received())
    assert.match(client.received(), /"error_code":408001/)
    assert.match(client.received(), /connection: close/i)
    assert.ok(sent < body.length, 'the server closed before the body was done')
  })

  test('connections past BILLING_MAX_CONNECTIONS are closed at once; once the idle ones time out, new clients are served', async ({ s }) => {
    const idle = await Promise.all(Array.from({ length: 60 }, () => rawClient(s.port)))
    // Closed without a byte: refused by the cap. The others are answered 408 at the headers timeout.
    let dropped = 0
    const outcomes = idle.map((c) => c.closed.then(({ gotData }) => void (gotData ? 0 : dropped++)))
    await Promise.all(outcomes)
    assert.ok(dropped >= 20, `${dropped} of 60 idle connections refused by a cap of 40`)
    assert.ok(idle.some((c) => c.statuses()[0] === 408), 'the ones let in were timed out')
    assert.is((await get(s, '/healthz')).status, 200)
  })

  test('a client that never reads its answers is let go after the send timeout; the server goes on', async ({ s }) => {
    const bundle = requestHead('GET', '/backend/api/v1/docs/swagger-ui-bundle.js')
    // Six bundles (10 MB) pipelined: more than the kernel's buffers take, so the server holds the rest.
    const inServer = await rawClient(s.port, { read: false })
    await inServer.send(bundle.repeat(6))
    assert.ok(await stillEstablished(inServer))
    await eventually('the server lets go of the answers it holds', async () => !(await stillEstablished(inServer)), 15_000)
    assert.is((await get(s, '/healthz')).status, 200)
  })

  test('a client that never reads one answer the kernel holds whole is reset at the idle timeout: nothing stays queued for it', async ({ s }) => {
    // One bundle (1.7 MB) fits in loopback's buffers: the server holds none of it, the kernel all of it.
    const client = await rawClient(s.port, { read: false })
    await client.send(requestHead('GET', '/backend/api/v1/docs/swagger-ui-bundle.js'))
    await eventually('the answer is handed to the kernel', async () => (await queuedToClient(client)) > 0, 5_000)
    await eventually('nothing stays queued for the client once the connection is idle', async () => (await queuedToClient(client)) === 0, 15_000)
    assert.is((await get(s, '/healthz')).status, 200)
  })

  test('a usage file of one endless line is refused at the line bound, naming the line, quoting at most 100 characters, before it is all sent', async ({ s }) => {
    const client = await rawClient(s.port)
    const total = 32 * 1024 * 1024
    await client.send(requestHead('POST', '/backend/api/v1/usageFiles', { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv', 'content-length': total }))
    const chunk = 'x'.repeat(64 * 1024)
    let sent = 0
    while (sent < total && !/\r\n\r\n/.test(client.received()) && (await client.send(chunk))) sent += chunk.length
    const answer = await client.answered()
    await client.closed
    assert.ok(sent < total / 2, `${sent} bytes sent before the answer`)
    assert.equal(client.statuses(), [400], answer.slice(0, 300))
    const body = JSON.parse(answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1))
    assert.is(body.error_code, 400101)
    assert.is(body.error, 'line 1: the line is longer than 16384 characters')
    // A long value in a line that is not too long: quoted, 100 characters at most.
    const long = await fetch(`${s.base}/usageFiles`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'text/csv' }, body: `${header}\n01632960001,07700900123,${'9'.repeat(500)},61,MOB,mobile,Gamma\n` })
    const refused = await long.json()
    assert.is(refused.error_code, 400101)
    assert.ok(refused.error.length < 300, refused.error.slice(0, 300))
    assert.match(refused.error, /^line 2: startTime "9{100}…" \(400 more characters\)/)
  })

  test('the Bearer scheme is case-insensitive; /readyz needs no key', async ({ s }) => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) assert.is((await get(s, '/backend/api/v1/customers', `${scheme} ${s.key}`)).status, 200, scheme)
    assert.is((await get(s, '/backend/api/v1/customers', `Basic ${s.key}`)).status, 401)
    assert.is((await fetch(`${s.base.replace('/backend/api/v1', '')}/readyz`)).status, 200)
  })

  test('clients that reset their connections while their creates are handled do not stop the server', async ({ s }) => {
    // A create's read of its body begun after its client had gone left node's "aborted" unhandled,
    // which stopped the process (seen at the end of a load run on Postgres, where the key check awaits the database).
    const ways = ['head only', 'half the body', 'the whole body'] as const
    for (let round = 0; round < 4; round++) {
      const clients = await Promise.all(Array.from({ length: 30 }, () => rawClient(s.port)))
      await Promise.all(
        clients.map(async (client, i) => {
          const body = JSON.stringify({ accountNumber: `RESET-${round}-${i}`, lastname: 'Reset' })
          await client.send(requestHead('POST', '/backend/api/v1/customers', { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'content-length': body.length }))
          const way = ways[i % 3]
          if (way !== 'head only') await client.send(way === 'half the body' ? body.slice(0, 10) : body)
          await new Promise((r) => setTimeout(r, i % 4))
          client.socket.resetAndDestroy()
        }),
      )
    }
    await new Promise((r) => setTimeout(r, 300))
    assert.is(s.server.child.exitCode, null, `the server stopped:\n${s.server.err().slice(-1500)}`)
    assert.is((await get(s, '/healthz')).status, 200)
  })

  test('SIGTERM still stops the server after all that', async ({ s }) => {
    s.server.child.kill('SIGTERM')
    const guard = new Promise<'running'>((r) => setTimeout(() => r('running'), 15_000).unref())
    assert.is(await Promise.race([s.server.exited, guard]), 0)
  })

  test.run()
}
