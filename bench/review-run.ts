/**
 * A review run and its approval (contract 16.1, issue 53) against a plain run of the same
 * data: the billing-run bench's customers (5 features each, 3 of them on numbers), `--scale` ×
 * 1,000,000 features. Each repetition seeds two fresh databases alike; one is billed by a plain
 * run, the other drafted by a review run and then finalised by its approval, each step by a
 * worker process (bench/support/billing-worker.ts) as in bench/billing-run.ts. Target: drafting
 * and approval together within 1.15 × the plain run (the plain run is the floor, measured in the
 * same repetition; each figure with the load average beside it).
 *
 *   npm run bench:review-run -- [--db sqlite|postgres] [--scale 0.1] [--runs 3]
 */
import { readFileSync } from 'node:fs'
import { openPlatform } from '../apps/platform/platform.js'
import { createBillingRun, updateBillingRun } from '../core/billing/billing-runs.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { childCommand } from './support/build.js'
import { openBenchDatabase, type BenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { runWorker, type WorkerResult } from './support/run-worker.js'
import { median } from './support/stats.js'

const args = parseArgs()
const report = new Report('review-run', args)
const features = scaled(1_000_000, args.scale, 10_000)
/** `--statements`: the approval's worker logs the statements that took longest (as bench/billing-run.ts's). */
const statements = process.argv.includes('--statements')
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

/** Runs `work` on a platform of the bench database (a run's creation or approval, outside the timed workers). */
async function onPlatform<T>(db: BenchDatabase, work: (ctx: Awaited<ReturnType<typeof openPlatform>>['context']) => Promise<T>): Promise<T> {
  const platform = await openPlatform({ ...db.config, skipMigrations: true })
  try {
    return await work(platform.context)
  } finally {
    await platform.close()
  }
}

async function seeded(): Promise<BenchDatabase> {
  const db = await openBenchDatabase(args.db, args.keep)
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers: Math.ceil(features / 5), numbersPerCustomer: 3, featuresPerCustomer: 5 })
  await writer.close()
  return db
}

const run = { cutoffDate: '2026-01-31', invoiceDate: '2026-02-01', status: 'Requested' }

async function plain(): Promise<WorkerResult> {
  const db = await seeded()
  try {
    await onPlatform(db, (ctx) => createBillingRun(ctx, { name: 'plain', ...run }))
    return await runWorker(db)
  } finally {
    await db.dispose()
  }
}

async function reviewed(): Promise<{ draft: WorkerResult; approval: WorkerResult; invoices: number }> {
  const db = await seeded()
  try {
    const created = await onPlatform(db, (ctx) => createBillingRun(ctx, { name: 'review', review: true, ...run }))
    const draft = await runWorker(db)
    if (draft.outcome.status !== 'Review') throw new Error(`drafting ended ${draft.outcome.status}`)
    await onPlatform(db, (ctx) => updateBillingRun(ctx, created.id, { status: 'Approved' }))
    const approval = await runWorker(db, db.childUrl, statements ? { BENCH_STATEMENTS: '1' } : {})
    for (const x of approval.statements ?? []) log(`  ${String(x.ms).padStart(6)} ms ${String(x.count).padStart(6)}× ${x.sql}`)
    if (approval.outcome.status !== 'Complete') throw new Error(`approval ended ${approval.outcome.status}`)
    return { draft, approval, invoices: approval.outcome.invoices }
  } finally {
    await db.dispose()
  }
}

// Built before any clock starts (the first call compiles the worker).
await childCommand('bench/support/billing-worker.ts')
const rows: { plainMs: number; draftMs: number; approvalMs: number; load: string }[] = []
for (let r = 0; r < args.runs; r++) {
  // Alternated, so a change of load falls on both sides.
  const first = r % 2 === 0 ? await plain() : null
  const review = await reviewed()
  const second = first ?? (await plain())
  const load = loadavg()
  rows.push({ plainMs: second.ms, draftMs: review.draft.ms, approvalMs: review.approval.ms, load })
  const cpu = (w: WorkerResult) => `CPU ${(w.cpuMs / 1000).toFixed(1)} s`
  log(`repetition ${r + 1}: plain ${(second.ms / 1000).toFixed(1)} s, ${cpu(second)} (${second.outcome.invoices} invoices); review ${(review.draft.ms / 1000).toFixed(1)} s, ${cpu(review.draft)} + approval ${(review.approval.ms / 1000).toFixed(1)} s, ${cpu(review.approval)} (${review.invoices} invoices) = ${((review.draft.ms + review.approval.ms) / second.ms).toFixed(3)}x; load ${load}`)
}
const plainS = median(rows.map((x) => x.plainMs)) / 1000
const draftS = median(rows.map((x) => x.draftMs)) / 1000
const approvalS = median(rows.map((x) => x.approvalMs)) / 1000
const ratio = median(rows.map((x) => (x.draftMs + x.approvalMs) / x.plainMs))
report.add({
  name: `review run + approval over ${features.toLocaleString('en-GB')} features`,
  target: '<= 1.15 x a plain run',
  measured: draftS + approvalS,
  unit: 's',
  baseline: plainS,
  ratio: 1 / ratio,
  pass: ratio <= 1.15,
  note: `drafting ${draftS.toFixed(1)} s, approval ${approvalS.toFixed(1)} s; (review + approval) / plain ${ratio.toFixed(3)} (median of repetitions); load ${rows.map((x) => x.load).join(' | ')}`,
})
report.finish({ features })
process.exit(0)
