import { readFileSync } from 'node:fs'
import { openPlatform } from '../../apps/platform/platform.js'
import { runNextBillingRun, type RunOutcome } from '../../core/billing/run-billing.js'
import { StatementTimes } from './statement-times.js'

/**
 * The worker side of bench/billing-run.ts: takes part in the requested billing run the way the
 * worker's job does (with others, under `--workers`: each claims partitions until none is left)
 * and stays until the run is complete, then prints one line `WORKER {json}` with its time, CPU,
 * peak RSS and the customers, invoices and ledger writes it made. DATABASE_URL as for the worker.
 * With BENCH_STATEMENTS=1 the line also has the statements that took longest, summed.
 */
const statements = process.env.BENCH_STATEMENTS === '1' ? new StatementTimes() : null
const platform = await openPlatform({ databaseUrl: process.env.DATABASE_URL!, skipMigrations: true, ...(statements ? { onQuery: statements.add } : {}) })
const writtenAtStart = wcharMB()
try {
  const rssAtStart = process.memoryUsage().rss / 2 ** 20
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  const outcome = { status: 'none', customers: 0, invoices: 0, ledgerWrites: 0 }
  let runID: string | null = null
  const add = (o: RunOutcome) => {
    runID = o.runID
    outcome.customers += o.customers
    outcome.invoices += o.invoices
    outcome.ledgerWrites += o.ledgerWrites
  }
  for (;;) {
    const o = await runNextBillingRun(platform.context, { leaseMs: 10_000, ...(process.env.BATCH_FEATURES ? { batchFeatures: Number(process.env.BATCH_FEATURES) } : {}) })
    if (o) add(o)
    // Another worker may complete the run: its status says when every partition is billed.
    const [open] = await platform.context.store.repository('billingRuns').list({ where: [{ op: 'in', column: 'status', values: ['Requested', 'Running', 'Approved'] }], limit: 1 })
    if (!open) break
    if (!o) await new Promise((r) => setTimeout(r, 50))
  }
  if (runID) outcome.status = String((await platform.context.store.repository('billingRuns').get(runID))?.status)
  const ms = performance.now() - start
  // CPU time of the worker alone: comparable between runs on a loaded machine, unlike wall time.
  const cpu = process.cpuUsage(cpuStart)
  const cpuMs = (cpu.user + cpu.system) / 1000
  const peakRssMB = process.resourceUsage().maxRSS / 1024
  const { heapTotal, heapUsed, external } = process.memoryUsage()
  const mb = (n: number) => Math.round(n / 2 ** 20)
  const writtenMB = wcharMB()
  process.stdout.write(`WORKER ${JSON.stringify({ ms, cpuMs, outcome, peakRssMB, rssAtStart, heapTotalMB: mb(heapTotal), heapUsedMB: mb(heapUsed), externalMB: mb(external), ...(writtenMB === null ? {} : { writtenMB: writtenMB - writtenAtStart! }), ...(statements ? { statements: statements.top(12) } : {}) })}\n`)
} finally {
  await platform.close()
}

/**
 * The bytes this process has written to files so far (Linux's `wchar`), in MB; null elsewhere. On
 * a machine whose speed moves between runs, a run's write volume still compares trees: a SQLite
 * run's time follows the pages it writes, and each is written twice (WAL, then checkpoint).
 */
function wcharMB(): number | null {
  try {
    const chars = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))
    return chars ? Math.round(Number(chars[1]) / 2 ** 20) : null
  } catch {
    return null
  }
}
