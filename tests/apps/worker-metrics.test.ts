import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { startWorkerProcess, until, type PlatformProcess } from '../support/platform-process.js'
import { activeTargets, type Target } from '../support/targets.js'

/**
 * Contract 13: job runs and durations by outcome reach Prometheus from `npm run worker` too.
 * With BILLING_WORKER_METRICS_PORT a worker serves its own `GET /metrics` (the server's handler:
 * a key unless METRICS_PUBLIC=true); a bad or busy port is one line and exit 1, nothing written.
 */

/** One metric's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** The port a worker logged its metrics endpoint on (`worker-metrics`). */
function loggedPort(worker: PlatformProcess): number | null {
  const line = worker.stderr().split('\n').find((l) => l.includes('"worker-metrics"'))
  return line ? (JSON.parse(line).port as number) : null
}

// A worker process cannot share a database in this process's memory.
for (const target of activeTargets().filter((t) => t !== 'sqlite-memory')) {
  const test = suite<{ h: Harness; dir: string }>(`apps: a worker's own /metrics [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
    ctx.dir = mkdtempSync(join(tmpdir(), 'worker-metrics-'))
  })
  test.after(async (ctx) => {
    await ctx.h.close()
    rmSync(ctx.dir, { recursive: true, force: true })
  })

  test('job runs and durations by outcome, behind a key; the worker stops cleanly', async ({ h, dir }) => {
    const worker = startWorkerProcess(h.target, { LOG_LEVEL: 'info', HOST: '127.0.0.1', BILLING_WORKER_METRICS_PORT: '0', BILLING_DR_DIR: dir, BILLING_MAIL_DIR: dir })
    try {
      await until('the worker to start', () => worker.stderr().includes('"worker-started"') || worker.process.exitCode !== null, 30_000)
      const port = loggedPort(worker)
      assert.ok(port, worker.stderr())
      const url = `http://127.0.0.1:${port}/metrics`
      assert.is((await fetch(url)).status, 401, 'a key is needed, as on the server')
      const scrape = async () => (await fetch(url, { headers: { authorization: `Bearer ${h.keys.admin}` } })).text()
      // invoice-overdue runs at the scheduler's start.
      const series = 'billing_job_runs_total{job="invoice-overdue",outcome="done"}'
      await until('the start-up job in the worker metrics', async () => sample(await scrape(), series) === 1, 30_000)
      const text = await scrape()
      assert.is(sample(text, 'billing_job_duration_seconds_count{job="invoice-overdue",outcome="done"}'), 1)
      assert.match(text, /^# TYPE billing_job_duration_seconds histogram$/m)
      assert.is((await fetch(`http://127.0.0.1:${port}/backend/api/v1/customers`, { headers: { authorization: `Bearer ${h.keys.admin}` } })).status, 404, 'the metrics port serves no API')
    } finally {
      worker.process.kill('SIGTERM')
    }
    assert.is(await worker.exited, 0, worker.stderr())
  })

  test.run()
}

{
  const test = suite<{ dir: string }>('apps: BILLING_WORKER_METRICS_PORT misconfigured')
  test.before((ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), 'worker-metrics-misconfig-'))
  })
  test.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }))

  const sqliteFile = (file: string): Target => ({ name: 'sqlite-file', databaseUrl: `sqlite:${file}`, dispose: async () => {} })

  /** The error lines of a refused start: exactly one, JSON, with no stack frames anywhere. */
  function oneError(stderr: string): string {
    assert.not.match(stderr, /\n\s+at /, `no stack trace: ${stderr}`)
    const errors = stderr.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((l) => l.level === 'error' || l.level === 'fatal')
    assert.is(errors.length, 1, stderr)
    return errors[0].error
  }

  test('not a port, or a port in use: one line that names it, exit 1, nothing written', async ({ dir }) => {
    const holder: Server = createServer()
    const busy = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)))
    try {
      const cases: [string, RegExp][] = [
        ['http', /BILLING_WORKER_METRICS_PORT must be a port/],
        ['70000', /BILLING_WORKER_METRICS_PORT must be a port/],
        [String(busy), new RegExp(`127\\.0\\.0\\.1:${busy} is already in use \\(set BILLING_WORKER_METRICS_PORT`)],
      ]
      for (const [value, message] of cases) {
        const db = join(dir, 'w.sqlite')
        const worker = startWorkerProcess(sqliteFile(db), { LOG_LEVEL: 'info', HOST: '127.0.0.1', BILLING_WORKER_METRICS_PORT: value, BILLING_DR_DIR: dir })
        // A worker that took the setting for a good one keeps running: stopped, it fails the test.
        const timer = setTimeout(() => worker.process.kill('SIGKILL'), 30_000)
        const code = await worker.exited
        clearTimeout(timer)
        assert.is(code, 1, `${value}: ${worker.stderr()}`)
        assert.match(oneError(worker.stderr()), message)
        assert.not.ok(existsSync(db), `the database was not created (${value})`)
      }
    } finally {
      holder.close()
    }
  })

  test.run()
}
