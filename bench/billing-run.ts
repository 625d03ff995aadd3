import { createBillingRun } from '../core/billing/billing-runs.js'
import { openPlatform } from '../apps/platform/platform.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { childCommand } from './support/build.js'
import { runWorker, type WorkerResult } from './support/run-worker.js'
import { openBenchDatabase, type BenchDatabase } from './support/database.js'
import { seedCustomers, seedInvoicing } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'
import { databaseCpu } from './support/database-cpu.js'
import { tableSizes } from './support/table-sizes.js'

/**
 * The monthly billing run over 1,000,000 features: under 60 s, at least 0.3 of a baseline that
 * only bulk-inserts as many ledger rows; a second run with the same cutoff under 10 s; the
 * worker's peak RSS within 100 MB of what it is at 10,000 features. Each of `--runs`
 * repetitions seeds a fresh database, bills it twice and times the baseline after it; the
 * figures are the medians (one run's ratio went from 0.28 to 0.32 with the baseline's time alone,
 * and one run's peak RSS by 75 MB with when V8 happened to collect).
 */
const args = parseArgs()
/**
 * `--invoicing` (contract 10.1-10.4, 10.6) seeds the customers with what makes a run do more for
 * them: a third on a Quarterly and a third on an Annually cycle, payment terms in each of the three
 * units, a payment method with grace days, one in ten with a 5.00 payment held for the next
 * invoice (which the run allocates), one in ten with a credit limit; and a number in twenty with
 * a call-charge minimum and a credit limit.
 */
const invoicing = process.argv.includes('--invoicing')
/**
 * `--discounts` (contract 11) puts a tenth of the features on the `10% First Year` scheme: each
 * of their periods gets a `Recurring Charge Discount` row beside its charge.
 */
const discounts = process.argv.includes('--discounts')
/**
 * `--statements`: each billing also logs the statements that took longest, each one's time
 * summed over the run (Kysely's log, in the worker): where a run's database time goes, statement
 * by statement (bench/RESULTS.md, session 17).
 */
const statementTimes = process.argv.includes('--statements')
/**
 * `--workers 1,2,4`: the scale-out scenario instead (issue 24). For each count, a fresh database
 * of the full size is billed by that many worker processes at once (each claims the run's
 * partitions), against the same-run floor (the ledger rows bulk-inserted), with the workers' CPU
 * and their database backends' CPU (Postgres on this machine): where the time goes.
 */
const workersArg = process.argv.find((a, i) => a.startsWith('--workers') && (a.includes('=') || process.argv[i + 1]))
const workerCounts = workersArg ? (workersArg.includes('=') ? workersArg.split('=')[1] : process.argv[process.argv.indexOf(workersArg) + 1]).split(',').map(Number) : null
const report = new Report(['billing-run', invoicing ? '--invoicing' : '', discounts ? '--discounts' : '', workerCounts ? `--workers ${workerCounts.join(',')}` : ''].filter(Boolean).join(' '), args)
const CUTOFF = '2026-01-31'

async function requestRun(db: BenchDatabase, name: string): Promise<void> {
  const platform = await openPlatform({ ...db.config, skipMigrations: true })
  try {
    await createBillingRun(platform.context, { name, cutoffDate: CUTOFF, invoiceDate: '2026-02-01', status: 'Requested' })
  } finally {
    await platform.close()
  }
}

/** What the worker wrote, when the system says: a SQLite worker's WAL and checkpoints, what a Postgres worker sent its server. */
const written = (r: WorkerResult) => (r.writtenMB === undefined ? '' : `, wrote ${r.writtenMB} MB`)

/** The statements of a billing that took longest (`--statements`): ms, times run, the statement. */
function logStatements(result: WorkerResult): void {
  for (const s of result.statements ?? []) log(`  ${String(s.ms).padStart(6)} ms ${String(s.count).padStart(6)}× ${s.sql}`)
}

/** What `workers` worker processes billing one run together did: wall time, their CPU and their backends'. */
interface ScaleOut {
  ms: number
  workerCpuMs: number
  databaseCpuMs: number | null
  outcome: WorkerResult['outcome']
  shares: number[]
}

/** Seeds `features` features, then bills them with `workers` processes at once; the run's wall time is until the last exits. */
async function scaleOutOf(features: number, workers: number): Promise<ScaleOut> {
  const db = await openBenchDatabase(args.db, args.keep)
  const cpu = databaseCpu(db, `bench_billing_${process.pid}_${workers}`)
  try {
    const writer = openBulkWriter(db)
    await seedCustomers(writer, { customers: Math.ceil(features / 5), numbersPerCustomer: 3, featuresPerCustomer: 5 })
    await writer.close()
    await requestRun(db, `workers ${workers}`)
    // Built before the clock starts (the first call compiles the platform).
    await childCommand('bench/support/billing-worker.ts')
    const sampler = setInterval(() => void cpu?.sample(), 200)
    const start = performance.now()
    const results = await Promise.all(Array.from({ length: workers }, () => runWorker(db, cpu?.url ?? db.childUrl))).finally(() => clearInterval(sampler))
    const ms = performance.now() - start
    await cpu?.sample()
    if (!results.some((r) => r.outcome.status === 'Complete')) throw new Error('no worker saw the run complete')
    const sum = (f: (r: WorkerResult) => number) => results.reduce((n, r) => n + f(r), 0)
    const outcome = { status: 'Complete', customers: sum((r) => r.outcome.customers), invoices: sum((r) => r.outcome.invoices), ledgerWrites: sum((r) => r.outcome.ledgerWrites) }
    const out: ScaleOut = { ms, workerCpuMs: sum((r) => r.cpuMs), databaseCpuMs: cpu ? cpu.seconds() * 1000 : null, outcome, shares: results.map((r) => r.outcome.customers) }
    // What a row costs on disk, once per size (docs/scaling.md plans capacity from it).
    if (workers === workerCounts![0]) await tableSizes(db, ['customers', 'numbers', 'features', 'transactions', 'invoices', 'ledger_reconciled', 'events', 'history'])
    log(`${workers} worker(s): ${(ms / 1000).toFixed(1)} s, workers' CPU ${(out.workerCpuMs / 1000).toFixed(1)} s, database backends' CPU ${out.databaseCpuMs === null ? 'n/a' : `${(out.databaseCpuMs / 1000).toFixed(1)} s`}, customers per worker ${out.shares.join(' / ')}, ${JSON.stringify(outcome)}`)
    return out
  } finally {
    await cpu?.close()
    await db.dispose()
  }
}

if (workerCounts) {
  const features = scaled(1_000_000, args.scale, 10_000)
  const rows: { workers: number; runs: ScaleOut[]; baselines: number[] }[] = workerCounts.map((workers) => ({ workers, runs: [], baselines: [] }))
  for (let r = 0; r < args.runs; r++) {
    for (const row of rows) {
      const run = await scaleOutOf(features, row.workers)
      row.runs.push(run)
      row.baselines.push(await insertBaseline(run.outcome.ledgerWrites))
    }
  }
  const single = rows.find((r) => r.workers === 1)
  const singleS = single ? median(single.runs.map((x) => x.ms)) / 1000 : null
  for (const row of rows) {
    const s = median(row.runs.map((x) => x.ms)) / 1000
    const baselineS = median(row.baselines) / 1000
    const workerCpu = median(row.runs.map((x) => x.workerCpuMs)) / 1000
    const dbCpu = row.runs[0].databaseCpuMs === null ? null : median(row.runs.map((x) => x.databaseCpuMs!)) / 1000
    const { outcome } = row.runs[0]
    report.add({
      name: `billing run over ${features.toLocaleString('en-GB')} features, ${row.workers} worker${row.workers === 1 ? '' : 's'}`,
      target: 'info (speed-up bounded by the cores: see docs/scaling.md)',
      measured: s,
      unit: 's',
      baseline: baselineS,
      ratio: median(row.runs.map((x, i) => row.baselines[i] / x.ms)),
      pass: null,
      note:
        `${outcome.ledgerWrites.toLocaleString('en-GB')} ledger rows; ${Math.round(features / s).toLocaleString('en-GB')} features/s` +
        (singleS ? `; speed-up ${(singleS / s).toFixed(2)}x` : '') +
        `; workers' CPU ${workerCpu.toFixed(1)} s` +
        (dbCpu === null ? '' : `, database backends' CPU ${dbCpu.toFixed(1)} s, together ${((workerCpu + dbCpu) / s).toFixed(2)} cores busy`) +
        `; customers per worker ${row.runs[0].shares.join('/')}`,
    })
  }
  report.finish({ features, workers: workerCounts })
  process.exit(0)
}

/** Seeds `features` features (5 a customer, 3 of them on numbers) and bills them once, then again. */
async function billingOf(features: number) {
  const db = await openBenchDatabase(args.db, args.keep)
  try {
    const writer = openBulkWriter(db)
    const customers = Math.ceil(features / 5)
    await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 5 })
    if (invoicing) await seedInvoicing(writer, customers)
    if (discounts) await writer.exec(`update features set "initialFeatureDiscountScheme" = '10% First Year' where id % 10 = 0`)
    await writer.close()
    await requestRun(db, 'first')
    const env: Record<string, string> = statementTimes ? { BENCH_STATEMENTS: '1' } : {}
    const first = await runWorker(db, db.childUrl, env)
    log(`first run: ${(first.ms / 1000).toFixed(1)} s (worker CPU ${(first.cpuMs / 1000).toFixed(1)} s), ${JSON.stringify(first.outcome)}, peak RSS ${first.peakRssMB.toFixed(0)} MB (at start ${first.rssAtStart.toFixed(0)}, V8 heap at end ${first.heapTotalMB})${written(first)}`)
    await requestRun(db, 'again')
    logStatements(first)
    const second = await runWorker(db, db.childUrl, env)
    log(`second run, same cutoff: ${(second.ms / 1000).toFixed(1)} s (worker CPU ${(second.cpuMs / 1000).toFixed(1)} s), ${JSON.stringify(second.outcome)}, peak RSS ${second.peakRssMB.toFixed(0)} MB`)
    logStatements(second)
    return { first, second }
  } finally {
    await db.dispose()
  }
}

/** The baseline: bulk-inserts `rows` ledger rows into an empty ledger (same table, same indexes). */
async function insertBaseline(rows: number): Promise<number> {
  const db = await openBenchDatabase(args.db, args.keep)
  try {
    const t = (name: string): BulkColumn => ({ name, type: 'text' })
    const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
    const i = (name: string): BulkColumn => ({ name, type: 'integer' })
    const columns = [b('customerID'), b('numberID'), b('featureID'), t('transactionType'), t('description'), t('transactionDate'), t('dateFrom'), t('dateTo'), { name: 'quantity', type: 'double precision' } as BulkColumn, b('amount'), t('VATRate'), b('VATAmount'), i('approved'), b('billingRunID'), t('kind'), i('series'), i('revision'), b('rate'), t('createdStamp'), t('updatedStamp')]
    const stamp = '2026-01-15T10:00:00.000Z'
    const writer = openBulkWriter(db)
    const start = performance.now()
    await writer.insert('transactions', columns, (function* () {
      for (let f = 1; f <= rows; f++) {
        yield [Math.ceil(f / 5), null, f, 'Recurring Charge', 'Line Rental', '2026-01-01', '2026-01-01', '2026-01-31', 1, 100_000, 'Standard 20%', 20_000, 0, 1, 'recurring', 0, 0, 100_000, stamp, stamp]
      }
    })())
    const ms = performance.now() - start
    await writer.close()
    log(`baseline: ${rows.toLocaleString('en-GB')} ledger rows bulk-inserted in ${(ms / 1000).toFixed(1)} s`)
    return ms
  } finally {
    await db.dispose()
  }
}

const features = scaled(1_000_000, args.scale, 10_000)
const smalls: WorkerResult[] = []
const fulls: { first: WorkerResult; second: WorkerResult; baselineMs: number }[] = []
for (let r = 0; r < args.runs; r++) {
  const small = await billingOf(10_000)
  smalls.push(small.first)
  const full = features === 10_000 ? small : await billingOf(features)
  const baselineMs = await insertBaseline(full.first.outcome.ledgerWrites)
  log(`repetition ${r + 1}: ${(full.first.ms / 1000).toFixed(1)} s against ${(baselineMs / 1000).toFixed(1)} s (ratio ${(baselineMs / full.first.ms).toFixed(3)}), peak RSS ${full.first.peakRssMB.toFixed(0)} MB against ${small.first.peakRssMB.toFixed(0)} MB`)
  fulls.push({ ...full, baselineMs })
}
// Medians of the repetitions; the outcome (rows, invoices) is the same in each.
const { outcome } = fulls[0].first
const firstS = median(fulls.map((f) => f.first.ms)) / 1000
const firstCpuS = median(fulls.map((f) => f.first.cpuMs)) / 1000
const peakRssMB = median(fulls.map((f) => f.first.peakRssMB))
const secondS = median(fulls.map((f) => f.second.ms)) / 1000
const secondCpuS = median(fulls.map((f) => f.second.cpuMs)) / 1000
const baselineMs = median(fulls.map((f) => f.baselineMs))
const ratio = median(fulls.map((f) => f.baselineMs / f.first.ms))
const smallPeak = median(smalls.map((s) => s.peakRssMB))
report.add({
  name: `billing run over ${features.toLocaleString('en-GB')} features`,
  target: '< 60 s (scaled) and >= 0.3 x baseline',
  measured: firstS,
  unit: 's',
  baseline: baselineMs / 1000,
  ratio,
  pass: firstS < 60 * Math.max(args.scale, 0.01) && ratio >= 0.3,
  note: `${outcome.ledgerWrites.toLocaleString('en-GB')} ledger rows, ${outcome.invoices.toLocaleString('en-GB')} invoices; ${Math.round(features / firstS).toLocaleString('en-GB')} features/s; worker CPU ${firstCpuS.toFixed(1)} s`,
})
report.add({ name: 'second run with the same cutoff', target: '< 10 s (scaled)', measured: secondS, unit: 's', pass: secondS < 10 * Math.max(args.scale, 0.01), note: `worker CPU ${secondCpuS.toFixed(1)} s` })
const growth = peakRssMB - smallPeak
report.add({
  name: 'worker peak RSS',
  target: 'within 100 MB of the 10,000-feature run',
  measured: peakRssMB,
  unit: 'MB',
  baseline: smallPeak,
  pass: growth <= 100,
  note: `+${growth.toFixed(0)} MB`,
})
report.finish({ features })
