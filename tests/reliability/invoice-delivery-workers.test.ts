import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { startSmtpSink } from '../support/smtp-sink.js'
import { activeTargets } from '../support/targets.js'
import { startWorkerProcess } from '../support/platform-process.js'

/**
 * Two worker processes (`apps/worker/main.ts`, as `npm run worker` runs it) send one run's
 * invoices at once over a real SMTP server (Postgres: every worker sends, each delivery claimed
 * by one): every invoice arrives exactly once, and every delivery is `Sent`.
 */
const CUSTOMERS = 60

/** A worker (apps/worker/main.ts) that sends mail every second and bills nothing. */
function startWorker(h: Harness, smtpUrl: string, drDir: string) {
  const worker = startWorkerProcess(h.target, {
    LOG_LEVEL: 'info',
    BILLING_DR_DIR: drDir,
    BILLING_SMTP_URL: smtpUrl,
    BILLING_SCHEDULE_INVOICE_DELIVERY: '* * * * * *',
    BILLING_SCHEDULE_BILLING_POLL: '0 0 1 1 *',
  })
  return { ...worker, log: worker.stderr }
}

for (const target of activeTargets().filter((t) => t === 'postgres')) {
  const test = suite(`invoice delivery: two worker processes send at once, each message once [${target}]`)
  test('every invoice arrives once; every delivery is Sent once', async () => {
    const sink = await startSmtpSink({ delayMs: 150 })
    const drDir = mkdtempSync(join(tmpdir(), 'delivery-workers-dr-'))
    const h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
    const workers: ReturnType<typeof startWorker>[] = []
    try {
      for (let i = 0; i < CUSTOMERS; i++) await h.request('POST', '/customers', { accountNumber: `W-${String(i).padStart(3, '0')}`, emptyInvoiceAction: 'Send', email: `w${i}@example.com`, emailBillType: 'PDF' })
      await h.request('POST', '/billingRuns', { cutoffDate: '2026-01-31', invoiceDate: '2026-01-31', status: 'Requested' })
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('billing-poll')
      await scheduler.stop()
      // A slow server (150 ms a message) keeps the first worker's claims going while the second
      // starts and claims beside it.
      for (let i = 0; i < 2; i++) workers.push(startWorker(h, sink.url, drDir))
      const end = Date.now() + 120_000
      const sent = async () => Number((await h.platform.database.db.selectFrom('invoice_deliveries').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'Sent').executeTakeFirst())?.n ?? 0)
      while ((await sent()) < CUSTOMERS) {
        if (Date.now() > end) throw new Error(`timed out: ${await sent()} sent; ${workers.map((w) => w.log().slice(-2000)).join('\n')}`)
        await new Promise((r) => setTimeout(r, 100))
      }
      await new Promise((r) => setTimeout(r, 1500))
      const recipients = sink.received.map((m) => (m.to as any).text as string)
      assert.is(recipients.length, CUSTOMERS, 'each message once')
      assert.is(new Set(recipients).size, CUSTOMERS)
      const rows = await h.platform.database.db.selectFrom('invoice_deliveries').select(['status', 'attempts']).execute()
      assert.ok(rows.every((r) => r.status === 'Sent' && Number(r.attempts) === 1), 'each claimed once')
      const byWorker = workers.map((w) => w.log().split('\n').filter((l) => l.includes('"job":"invoice-delivery"')).reduce((n, l) => n + (JSON.parse(l).result?.sent ?? 0), 0))
      console.log(`  [delivery workers ${target}] ${CUSTOMERS} invoices sent once each; by worker: ${byWorker.join(', ')}`)
    } finally {
      for (const w of workers) if (w.process.exitCode === null && w.process.signalCode === null) w.process.kill('SIGTERM')
      await Promise.all(workers.map((w) => w.exited))
      await h.close()
      await sink.close()
      rmSync(drDir, { recursive: true, force: true })
    }
  })
  test.run()
}
