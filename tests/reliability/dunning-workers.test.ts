import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergePresets } from '../../core/presets/presets.js'
import { bill } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { startSmtpSink } from '../support/smtp-sink.js'
import { activeTargets } from '../support/targets.js'
import { startWorkerProcess } from '../support/platform-process.js'

/**
 * Two worker processes (`apps/worker/main.ts`) run the `dunning` job every second against one
 * Postgres database, on invoices long overdue (every step due at once): each step is taken once
 * per invoice, each reminder and final notice arrives once through a real SMTP server.
 */
const CUSTOMERS = 20
const profiles = { Strict: { steps: [{ afterDays: 7, action: 'reminder' }, { afterDays: 14, action: 'finalNotice' }, { afterDays: 28, action: 'suspend' }, { afterDays: 28, action: 'bar' }] } }

/** A worker (apps/worker/main.ts) that runs dunning and sends mail every second, and bills nothing. */
function startWorker(h: Harness, smtpUrl: string, dir: string) {
  const worker = startWorkerProcess(
    h.target,
    {
      LOG_LEVEL: 'info',
      BILLING_DR_DIR: dir,
      BILLING_PRESETS_FILE: join(dir, 'presets.json'),
      BILLING_SMTP_URL: smtpUrl,
      BILLING_SCHEDULE_DUNNING: '* * * * * *',
      BILLING_SCHEDULE_INVOICE_DELIVERY: '* * * * * *',
      BILLING_SCHEDULE_BILLING_POLL: '0 0 1 1 *',
    },
    { wholeLog: true },
  )
  return { ...worker, log: worker.stderr }
}

for (const target of activeTargets().filter((t) => t === 'postgres')) {
  const test = suite(`dunning: two worker processes at once take each step once [${target}]`)
  test('every step once per invoice; every reminder and final notice once', async () => {
    const sink = await startSmtpSink()
    const dir = mkdtempSync(join(tmpdir(), 'dunning-workers-'))
    writeFileSync(join(dir, 'presets.json'), JSON.stringify({ dunningProfiles: profiles }))
    const h = await openHarness(target, { now: '2025-02-01T09:00:00Z', presets: mergePresets({ dunningProfiles: profiles }) })
    const workers: ReturnType<typeof startWorker>[] = []
    try {
      for (let i = 0; i < CUSTOMERS; i++) {
        const c = await h.request('POST', '/customers', { accountNumber: `DW-${String(i).padStart(3, '0')}`, email: `dw${i}@example.com`, emailBillType: 'None', paymentTerms: 14, dunningProfile: 'Strict' })
        await h.request('POST', `/customers/${c.body.id}/numbers`, { number: `020 7946 ${String(1000 + i)}` })
        await h.request('POST', `/customers/${c.body.id}/transactions`, { transactionType: 'Installation', amount: '25.00', transactionDate: '2025-01-20' })
      }
      await bill(h, '2025-01-31')
      for (let i = 0; i < 2; i++) workers.push(startWorker(h, sink.url, dir))
      const db = h.platform.database.db
      // Events are read as the feed reads them: numbered first (Postgres appends them unnumbered; dialect/event-numbers.ts).
      const numbered = async () => (await h.platform.database.dialect.numberEvents(db), db)
      const stepsTaken = async () => Number((await (await numbered()).selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'dunning.step_taken').executeTakeFirst())?.n ?? 0)
      const end = Date.now() + 90_000
      while ((await stepsTaken()) < CUSTOMERS * 4 || sink.received.length < CUSTOMERS * 2) {
        if (Date.now() > end) throw new Error(`timed out: ${await stepsTaken()} steps, ${sink.received.length} mails; ${workers.map((w) => w.log().slice(-2000)).join('\n')}`)
        await new Promise((r) => setTimeout(r, 200))
      }
      // Both keep running the job (every second) a while longer: nothing more may happen.
      await new Promise((r) => setTimeout(r, 3_000))
      assert.is(await stepsTaken(), CUSTOMERS * 4, 'each step once')
      const invoices = (await h.request('GET', '/invoices?limit=1000')).body as any[]
      for (const inv of invoices) assert.equal(inv.dunningSteps.map((s: any) => s.action), ['reminder', 'finalNotice', 'suspend', 'bar'], `invoice ${inv.id}`)
      const subjects = sink.received.map((m) => `${(m.to as any).text} ${/reminder/.test(m.subject!) ? 'reminder' : 'final'}`)
      assert.is(subjects.length, CUSTOMERS * 2, 'each email once')
      assert.is(new Set(subjects).size, CUSTOMERS * 2)
      const customers = (await h.request('GET', '/customers?limit=1000')).body as any[]
      assert.ok(customers.every((c) => c.isSuspended && c.statusReason === 'Dunning'))
      const bars = Number((await (await numbered()).selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'customer.bar_requested').executeTakeFirst())?.n ?? 0)
      assert.is(bars, CUSTOMERS)
      const suspends = Number((await (await numbered()).selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'customer.suspended').executeTakeFirst())?.n ?? 0)
      assert.is(suspends, CUSTOMERS)
      const runs = workers.map((w) => w.log().split('\n').filter((l) => l.includes('"job":"dunning"') && l.includes('"steps"')).length)
      console.log(`  [dunning workers ${target}] ${CUSTOMERS * 4} steps once each; runs that took steps, by worker: ${runs.join(', ')}`)
    } finally {
      for (const w of workers) if (w.process.exitCode === null && w.process.signalCode === null) w.process.kill('SIGTERM')
      await Promise.all(workers.map((w) => w.exited))
      await h.close()
      await sink.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test.run()
}
