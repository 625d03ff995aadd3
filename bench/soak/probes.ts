import { eventually, rawClient, requestHead, stillEstablished } from '../../tests/support/raw-http.js'
import type { Probe, SoakTarget } from './probe.js'

const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const rows = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => `016329${String(from + i).padStart(5, '0')},07700900123,2026-01-14T10:00:00Z,61,MOB,mobile,Gamma\n`).join('')
const auth = (t: SoakTarget) => ({ authorization: `Bearer ${t.key}` })
const healthy = async (t: SoakTarget) => (await fetch(`${t.root}/healthz`).catch(() => null))?.status === 200
/** Null when `check` comes true within the target's patience, else `failure`. */
const within = (t: SoakTarget, failure: string, check: () => boolean | Promise<boolean>) =>
  eventually(failure, check, t.patienceMs).then(
    () => null,
    () => failure,
  )

/** The probes `npm run soak` runs, in order (issue 49); another is one more entry here. */
export const probes: readonly Probe[] = [
  {
    name: 'stalled-import',
    what: 'a usage import whose client stops sending: one answer, then /healthz answers (no transaction held)',
    async run(t) {
      const client = await rawClient(t.port)
      const body = `${header}\n${rows(2000, Date.now() % 90_000)}`
      await client.send(requestHead('POST', '/backend/api/v1/usageFiles?name=soak-stalled.csv', { ...auth(t), 'content-type': 'text/csv', 'content-length': body.length * 4 }))
      await client.send(body)
      const answered = await within(t, 'no answer', () => client.statuses().length > 0)
      client.socket.destroy()
      if (answered) return answered
      if (client.statuses().length !== 1) return `answers ${client.statuses().join(', ')}`
      return within(t, '/healthz does not answer 200', () => healthy(t))
    },
  },
  {
    name: 'slow-json-body',
    what: 'a JSON body a byte at a time: one 408, then the connection closes',
    async run(t) {
      const client = await rawClient(t.port)
      const body = JSON.stringify({ accountNumber: `SOAK-${Date.now()}` }).padEnd(100_000, ' ')
      await client.send(requestHead('POST', '/backend/api/v1/customers', { ...auth(t), 'content-type': 'application/json', 'content-length': body.length }))
      const deadline = performance.now() + t.patienceMs
      for (let i = 0; i < body.length && performance.now() < deadline && (await client.send(body[i])); i++) await new Promise((r) => setTimeout(r, 100))
      await Promise.race([client.closed, new Promise((r) => setTimeout(r, 1000))])
      const statuses = client.statuses()
      client.socket.destroy()
      return statuses.length === 1 && statuses[0] === 408 ? null : `answers [${statuses.join(', ')}]`
    },
  },
  {
    name: 'idle-sockets',
    what: '500 sockets that send nothing: the server stays alive and, soon, serves a new client',
    async run(t) {
      const idle = await Promise.all(Array.from({ length: 500 }, () => rawClient(t.port).catch(() => null)))
      const failure = await within(t, 'a new client is not served', () => healthy(t))
      for (const c of idle) c?.socket.destroy()
      return failure
    },
  },
  {
    name: 'never-reading',
    what: 'a client that asks for the docs bundle six times over and never reads: the server lets go of it',
    async run(t) {
      const deaf = await rawClient(t.port, { read: false })
      await deaf.send(requestHead('GET', '/backend/api/v1/docs/swagger-ui-bundle.js').repeat(6))
      const failure = await within(t, 'the connection is still held', async () => !(await stillEstablished(deaf)))
      deaf.socket.destroy()
      return failure
    },
  },
  {
    name: 'endless-line',
    what: 'a usage file of one 32 MB line: refused (400101) before half of it is sent',
    async run(t) {
      const client = await rawClient(t.port)
      const total = 32 * 1024 * 1024
      await client.send(requestHead('POST', '/backend/api/v1/usageFiles', { ...auth(t), 'content-type': 'text/csv', 'content-length': total }))
      const chunk = 'x'.repeat(64 * 1024)
      let sent = 0
      while (sent < total && client.statuses().length === 0 && (await client.send(chunk))) sent += chunk.length
      await client.answered()
      client.socket.destroy()
      if (client.statuses()[0] !== 400 || !client.received().includes('400101')) return `answered ${client.statuses().join(', ') || 'nothing'}`
      return sent < total / 2 ? null : `read ${sent} bytes of the line before answering`
    },
  },
  {
    name: 'keyed-large-upload',
    what: 'a 1.3 MB usage file with an Idempotency-Key: imported once, then replayed',
    async run(t) {
      const body = `${header}\n${rows(20_000, 0)}`
      const key = `soak-${Date.now()}`
      const send = () => fetch(`${t.base}/usageFiles?name=soak-keyed.csv`, { method: 'POST', headers: { ...auth(t), 'content-type': 'text/csv', 'idempotency-key': key }, body })
      const first = await send()
      await first.arrayBuffer()
      if (first.status !== 201) return `first answered ${first.status}`
      const again = await send()
      await again.arrayBuffer()
      return again.headers.get('idempotent-replayed') === 'true' ? null : `repeat answered ${again.status}, not replayed`
    },
  },
  {
    name: 'bearer-case',
    what: 'Authorization "bearer <key>" is accepted; /readyz answers without a key',
    async run(t) {
      const lower = await fetch(`${t.base}/customers?limit=1`, { headers: { authorization: `bearer ${t.key}` } })
      if (lower.status !== 200) return `bearer answered ${lower.status}`
      const ready = await fetch(`${t.root}/readyz`)
      return ready.status === 200 ? null : `/readyz answered ${ready.status}`
    },
  },
]
