import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { JobLogEntry } from '../../adapters/scheduler/scheduler.js'
import { readEnvConfig } from '../../apps/platform/config.js'
import { logJobEnd, throttledProgressLog } from '../../apps/platform/jobs.js'
import { requestLineLogger } from '../../apps/platform/logger.js'
import { capturedLogger } from '../support/log-lines.js'
import { openHarness } from '../support/harness.js'

const test = suite('apps logger: pino JSON lines')

test('one JSON object per line: level as a name, ISO time, the event as msg, then the fields', () => {
  const { logger, lines, entries } = capturedLogger('info')
  logger.info({ path: '/x"y', status: 200, nested: { a: [1, null] } }, 'request')
  const [line] = entries()
  assert.is(lines.length, 1)
  assert.ok(lines[0].endsWith('\n') && !lines[0].slice(0, -1).includes('\n'))
  assert.equal({ level: line.level, msg: line.msg, path: line.path, status: line.status, nested: line.nested }, { level: 'info', msg: 'request', path: '/x"y', status: 200, nested: { a: [1, null] } })
  assert.match(line.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  assert.is(line.pid, process.pid)
})

test('LOG_LEVEL: below the level nothing is written; a level pino does not know refuses to start', () => {
  const { logger, entries } = capturedLogger('error')
  logger.info({}, 'quiet')
  logger.debug({}, 'quieter')
  logger.error({}, 'loud')
  assert.equal(entries().map((e) => e.msg), ['loud'])
  assert.is(readEnvConfig({}).logLevel, 'info')
  assert.is(readEnvConfig({ LOG_LEVEL: 'debug' }).logLevel, 'debug')
  assert.throws(() => readEnvConfig({ LOG_LEVEL: 'verbose' }), /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)/)
})

test('secrets are redacted wherever a field by their name is logged', () => {
  const { logger, lines } = capturedLogger('info')
  logger.info({ authorization: 'Bearer tbk_top', headers: { authorization: 'Bearer tbk_top' }, body: { accountPassword: 'hunter2', secret: 'whsec_x' }, password: 'p4ss' }, 'oops')
  const [line] = lines
  for (const secret of ['tbk_top', 'hunter2', 'whsec_x', 'p4ss']) assert.not.ok(line.includes(secret), line)
  assert.equal(JSON.parse(line).headers, { authorization: '[redacted]' })
})

test('request lines: the same JSON line at the same level, through a logger that skips the redaction net; others keep it', () => {
  const { logger, entries } = capturedLogger('info')
  const requests = requestLineLogger(logger)
  assert.is.not(requests, logger)
  requests.info({ requestId: 'r-1', method: 'GET', path: '/backend/api/v1/customers/7', status: 200 }, 'request')
  requests.debug({}, 'below the level')
  logger.info({ password: 'p4ss' }, 'oops')
  const [line, other] = entries()
  assert.equal([line.level, line.msg, line.requestId, line.path, line.status, line.pid], ['info', 'request', 'r-1', '/backend/api/v1/customers/7', 200, process.pid])
  assert.match(line.time, /^\d{4}-\d{2}-\d{2}T/)
  assert.is(other.password, '[redacted]')
  const own = { info() {}, debug() {}, warn() {}, error() {} }
  assert.is(requestLineLogger(own), own, "an application's own logger is used as it is")
})

test('request lines: byte for byte the line pino writes, for flat fields and for any others', () => {
  const { logger, lines } = capturedLogger('info')
  const requests = requestLineLogger(logger)
  const entries: object[] = [
    { requestId: 'r-1', method: 'GET', path: '/backend/api/v1/customers/7', route: '/backend/api/v1/customers/:id', status: 200, keyName: 'admin', durationMs: 1.23 },
    { requestId: 'r-2', method: 'POST', path: '/x"y\\z\u0001é', route: null, status: 404, keyName: null, durationMs: Infinity, gone: undefined, ok: true },
    { requestId: 'r-3', nested: { b: 2, a: [1, null] } },
  ]
  for (const entry of entries) {
    logger.info(entry, 'request')
    requests.info(entry, 'request')
  }
  const untimed = lines.map((l) => l.replace(/"time":"[^"]+"/, '"time":"T"'))
  for (let i = 0; i < untimed.length; i += 2) assert.is(untimed[i + 1], untimed[i])
})

test('BILLING_LOG_REQUESTS: all by default; writes keeps changes and failures, reads that answered are left to the metrics; none writes no line', async () => {
  assert.is(readEnvConfig({}).logRequests, 'all')
  assert.is(readEnvConfig({ BILLING_LOG_REQUESTS: 'writes' }).logRequests, 'writes')
  assert.throws(() => readEnvConfig({ BILLING_LOG_REQUESTS: 'reads' }), /BILLING_LOG_REQUESTS must be one of all, writes, none \(got "reads"\)/)
  const seen: Record<string, string[]> = {}
  for (const mode of ['all', 'writes', 'none'] as const) {
    const { logger, entries } = capturedLogger('info')
    const h = await openHarness('sqlite-memory', { config: { logger, logRequests: mode } })
    try {
      const { id } = (await h.request('POST', '/customers', { lastname: 'Lamarr' })).body as { id: string }
      await h.request('GET', `/customers/${id}`)
      await h.request('GET', '/customers/999999')
      await h.request('PATCH', `/customers/${id}`, { firstnames: 'Hedy' })
      await h.request('GET', '/customers', undefined, { key: null })
      const metrics = await h.request('GET', '/metrics')
      seen[mode] = entries()
        .filter((e) => e.msg === 'request')
        .map((e) => `${e.method} ${e.route} ${e.status}`)
      // The metrics count every request whatever is logged (the POST, three GETs and the PATCH before this one).
      const counted = [...metrics.text.matchAll(/^billing_http_requests_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0)
      assert.is(counted, 5, `${mode}: requests counted`)
    } finally {
      await h.close()
    }
  }
  const item = '/backend/api/v1/customers/:id'
  assert.equal(seen.all, [`POST /backend/api/v1/customers 201`, `GET ${item} 200`, `GET ${item} 404`, `PATCH ${item} 200`, `GET /backend/api/v1/customers 401`, 'GET /metrics 200'])
  assert.equal(seen.writes, [`POST /backend/api/v1/customers 201`, `GET ${item} 404`, `PATCH ${item} 200`, `GET /backend/api/v1/customers 401`])
  assert.equal(seen.none, [])
})

test('job end lines: a failure at error with its stack, work done at info, nothing found or skipped at debug', () => {
  const { logger, entries } = capturedLogger('debug')
  const log = logJobEnd(logger)
  const base = { holder: 'h#1', durationMs: 3 }
  const failure = new Error('the database went away')
  const ended: JobLogEntry[] = [
    { ...base, job: 'billing-poll', outcome: 'failed', error: failure.message, failure },
    { ...base, job: 'billing-poll', outcome: 'done', result: { runs: 1 } },
    { ...base, job: 'billing-poll', outcome: 'done' },
    { ...base, job: 'billing-poll', outcome: 'skipped' },
  ]
  ended.forEach(log)
  const [failed, done, idle, skipped] = entries()
  assert.equal([failed.level, done.level, idle.level, skipped.level], ['error', 'info', 'debug', 'debug'])
  assert.is(failed.err.message, 'the database went away')
  assert.match(failed.err.stack, /logger\.test\.ts/)
  assert.equal(done.result, { runs: 1 })
})

test('billing-run progress: the first step is logged, then at most one line every 10 s, each naming the run', () => {
  const { logger, entries } = capturedLogger('info')
  let now = 0
  const progress = throttledProgressLog(logger, () => now)
  const step = (done: number) => progress({ runID: '12', customersTotal: 100, customersDone: done, invoiceCount: done, estimatedCompletion: null })
  for (const [ms, done] of [[0, 10], [4_000, 20], [9_999, 30], [10_000, 40], [15_000, 50], [20_001, 60]]) {
    now = ms
    step(done)
  }
  assert.equal(entries().map((e) => [e.msg, e.runID, e.customersDone]), [
    ['billing-run-progress', '12', 10],
    ['billing-run-progress', '12', 40],
    ['billing-run-progress', '12', 60],
  ])
})

test.run()
