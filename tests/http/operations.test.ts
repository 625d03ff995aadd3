import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { runNextBillingRun } from '../../core/billing/run-billing.js'
import { newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { capturedLogger } from '../support/log-lines.js'
import { activeTargets } from '../support/targets.js'

/** Seven customers with a monthly charge each: seven invoices on a run through February. */
async function sevenBillableCustomers(h: Harness): Promise<void> {
  for (let i = 0; i < 7; i++) {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
  }
}

const requestRun = async (h: Harness) => (await h.request('POST', '/billingRuns', { name: 'Feb', cutoffDate: '2026-02-28', invoiceDate: '2026-02-28', status: 'Requested' })).body.id as string

/** One metric's value from the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; log: ReturnType<typeof capturedLogger> }>(`http operations: progress, metrics, readiness [${target}]`)
  test.before.each(async (ctx) => {
    ctx.log = capturedLogger('info')
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z', config: { logger: ctx.log.logger } })
  })
  // Never throws: a throw here, inside uvu's error path, hides the test's own failure (the suite
  // reports 0 of 4 passed and no error). `h` is absent when opening it failed.
  test.after.each(async (ctx) => {
    const h: Harness | undefined = ctx.h
    Object.assign(ctx, { h: undefined })
    await h?.close().catch((error) => console.error('closing the harness failed:', error))
  })

  test('a Running run shows customersTotal, customersDone, invoiceCount so far and estimatedCompletion; Complete shows its counts', async ({ h }) => {
    const pending = (await h.request('POST', '/billingRuns', { name: 'later', cutoffDate: '2026-03-31' })).body.id
    for (const field of ['customersTotal', 'customersDone', 'estimatedCompletion']) {
      const patched = await h.request('PATCH', `/billingRuns/${pending}`, { [field]: field === 'estimatedCompletion' ? '2026-03-01T00:00:00Z' : 5 })
      assert.is(patched.body.error_code, 400102, `${field} is read-only: ${patched.text}`)
    }
    await h.request('DELETE', `/billingRuns/${pending}`)
    await sevenBillableCustomers(h)
    const id = await requestRun(h)
    // Each read of the clock is a second later, so the run has a pace to estimate from.
    const clock = h.clock
    const read = clock.now.bind(clock)
    clock.now = () => (clock.advanceMs(1000), read())
    const stop = new AbortController()
    // Batches of one customer, three a transaction: the first step bills three, then the run is interrupted.
    const first = await runNextBillingRun(h.platform.context, { batchSize: 1, signal: stop.signal, onProgress: () => stop.abort() })
    assert.is(first?.status, 'Interrupted')
    const running = (await h.request('GET', `/billingRuns/${id}`)).body
    assert.equal([running.status, running.customersTotal, running.customersDone, running.invoiceCount], ['Running', 7, 3, 3])
    assert.ok(running.estimatedCompletion > running.commencedDate, JSON.stringify(running))

    const metrics = (await h.request('GET', '/metrics')).text
    assert.is(sample(metrics, `billing_run_customers_total{run_id="${id}"}`), 7)
    assert.is(sample(metrics, `billing_run_customers_done{run_id="${id}"}`), 3)
    assert.is(sample(metrics, `billing_run_invoices{run_id="${id}"}`), 3)
    assert.is(sample(metrics, `billing_run_estimated_completion_timestamp_seconds{run_id="${id}"}`), Date.parse(running.estimatedCompletion) / 1000)

    const resumed = await runNextBillingRun(h.platform.context, { batchSize: 1 })
    clock.now = read
    assert.equal([resumed?.status, resumed?.customers, resumed?.invoices], ['Complete', 4, 4])
    const done = (await h.request('GET', `/billingRuns/${id}`)).body
    assert.equal([done.status, done.customersTotal, done.customersDone, done.invoiceCount, done.estimatedCompletion], ['Complete', 7, 7, 7, null])
    assert.is(sample((await h.request('GET', '/metrics')).text, `billing_run_customers_done{run_id="${id}"}`), undefined, 'a finished run leaves the gauges')
  })

  test('the billing job logs progress with the run ID, and an end line with the run and its counts', async ({ h, log }) => {
    await sevenBillableCustomers(h)
    const id = await requestRun(h)
    const scheduler = h.platform.createScheduler({ schedules: { ...(await import('../../apps/platform/jobs.js')).readSchedules({}), billingBatchSize: 1 } })
    await scheduler.runNow('billing-poll')
    await scheduler.stop()
    const lines = log.entries()
    const progress = lines.filter((e) => e.msg === 'billing-run-progress')
    assert.equal(progress.map((e) => [e.runID, e.customersDone, e.customersTotal]), [[id, 3, 7]], 'one line: the rest came within 10 s')
    const ended = lines.filter((e) => e.msg === 'billing-run-ended')
    assert.equal(ended.map((e) => [e.runID, e.status, e.customers, e.invoices]), [[id, 'Complete', 7, 7]])
    const job = lines.filter((e) => e.msg === 'job' && e.job === 'billing-poll')
    assert.equal(job.map((e) => [e.level, e.outcome, e.result]), [['info', 'done', { runs: 1 }]])
  })

  test('GET /metrics: a key is needed; requests by route pattern and status with latency; job runs by outcome', async ({ h }) => {
    assert.is((await h.request('GET', '/metrics', undefined, { key: null })).status, 401)
    await h.request('GET', '/customers')
    await h.request('GET', '/customers/999999')
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('purge-customers')
    await scheduler.stop()
    const r = await h.request('GET', '/metrics')
    assert.is(r.status, 200)
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
    assert.ok(r.headers.get('x-request-id'))
    const list = 'method="GET",route="/backend/api/v1/customers",status="200"'
    assert.ok(sample(r.text, `billing_http_requests_total{${list}}`)! >= 1, r.text.slice(0, 2000))
    assert.ok(sample(r.text, `billing_http_request_duration_seconds_count{${list}}`)! >= 1)
    assert.is(sample(r.text, 'billing_http_requests_total{method="GET",route="/backend/api/v1/customers/:id",status="404"}'), 1, 'by pattern, not by ID')
    assert.ok(sample(r.text, 'billing_http_requests_total{method="GET",route="unmatched",status="401"}') === undefined, 'the unauthenticated scrape matched its route')
    assert.is(sample(r.text, 'billing_job_runs_total{job="purge-customers",outcome="done"}'), 1)
    assert.is(sample(r.text, 'billing_job_duration_seconds_count{job="purge-customers",outcome="done"}'), 1)
    assert.match(r.text, /^process_cpu_user_seconds_total /m)
    assert.is(sample(r.text, 'billing_event_delivery_backlog'), 0, 'the webhook outbox feeds it: no webhook, nothing waits')
    h.platform.metrics.eventBacklog(async () => 42)
    assert.is(sample((await h.request('GET', '/metrics')).text, 'billing_event_delivery_backlog'), 42)
  })

  test('GET /readyz: 200 when every migration is applied and the database answers; 503 with the reason otherwise', async ({ h }) => {
    assert.equal((await h.request('GET', '/readyz', undefined, { key: null })).body, { status: 'ready' })
    await sql`delete from kysely_migration where name = ${'0011-billing-run-progress'}`.execute(h.platform.database.db)
    const pending = await h.request('GET', '/readyz', undefined, { key: null })
    assert.equal([pending.status, pending.body], [503, { status: 'unavailable', reason: 'migrations not applied: 0011-billing-run-progress' }])
  })

  test.run()
}

{
  const test = suite('http operations: settings')
  test('METRICS_PUBLIC: /metrics answers without a key; /readyz says when the database is gone', async () => {
    const h = await openHarness('sqlite-file', { config: { metricsPublic: true } })
    try {
      const r = await h.request('GET', '/metrics', undefined, { key: null })
      assert.is(r.status, 200)
      assert.match(r.text, /# TYPE billing_http_requests_total counter/)
      await h.platform.database.close()
      const gone = await h.request('GET', '/readyz', undefined, { key: null })
      assert.equal([gone.status, gone.body], [503, { status: 'unavailable', reason: 'the database does not answer' }])
    } finally {
      await h.close()
    }
  })
  test.run()
}
