import { existsSync, statSync } from 'node:fs'
import { FixedClock } from '../adapters/persistence/system-clock.js'
import { openPlatform } from '../apps/platform/platform.js'
import { billCalls } from '../core/billing/bill-calls.js'
import { markRunCalls } from '../core/billing/run-call-mark.js'
import type { DateOnly } from '../core/dates/date-only.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { insertRatedCalls } from './support/rated-calls.js'
import { openBenchDatabase, POSTGRES_URL, type BenchDatabase } from './support/database.js'
import { databaseCpu } from './support/database-cpu.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { tableSizes } from './support/table-sizes.js'

/**
 * What a rated call costs on disk (Postgres): 1,000,000 calls as an import stores them (the
 * columns of call-inserts.ts, a SHA-256 fingerprint each, rated to a customer and number),
 * bulk-inserted, then measured heap and indexes apart, with the time the insert took. The
 * billing-run bench (`--workers`) measures the other tables; docs/scaling.md plans from both.
 *
 * Then the calls are billed as a billing run bills them, without the rest of the run: for each
 * batch of 500 customers, core's `billCalls` through the platform's store (a `Call Charges` row
 * per number; before issue 56 it also rewrote every call with its row's ID), then once more as
 * the next run would, with nothing new to bill. The figures are the database's CPU a call and
 * the calls' bytes after billing (on SQLite the process's CPU and the file's bytes): what the
 * monthly run costs per call, which the billing-run bench (no calls) does not show.
 */
const args = parseArgs()
const report = new Report('row-sizes', args)
const calls = scaled(1_000_000, args.scale, 10_000)
const db = await openBenchDatabase(args.db, args.keep)
try {
  // 100 calls a customer: 1,000,000 calls of 10,000 customers at --scale 1.
  const customers = Math.ceil(calls / 100)
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 0 })
  const start = performance.now()
  await insertRatedCalls(writer, {
    calls,
    customers,
    calling: (_customer, _slot, number) => `01632${String(number).padStart(6, '0')}`,
    startTime: (n) => new Date(Date.UTC(2026, 0, 1) + (n % 2_678_400) * 1000).toISOString(),
    stamp: '2026-02-01T03:00:00.000Z',
  })
  const ms = performance.now() - start
  await writer.close()
  log(`${calls.toLocaleString('en-GB')} calls bulk-inserted in ${(ms / 1000).toFixed(1)} s`)
  const [size] = (await tableSizes(db, ['calls'])) ?? []
  const fileBefore = sqliteFileBytes(db)
  if (size) {
    report.add({ name: 'a rated call on disk: heap', target: 'info (docs/scaling.md)', measured: size.heapBytes / size.rows, unit: 'B', pass: null })
    report.add({ name: 'a rated call on disk: indexes', target: 'info (docs/scaling.md)', measured: size.indexBytes / size.rows, unit: 'B', pass: null, note: 'fingerprint (unique), customer, number, rated and unrated indexes' })
  }
  report.add({ name: 'calls bulk-inserted (the import floor)', target: 'info', measured: calls / (ms / 1000), unit: 'rows/s', pass: null })
  const { first: billed, again } = await billAll(db, customers)
  const cpu = billed.databaseCpu ?? billed.processCpu
  report.add({ name: 'calls billed by a run (core/billing/bill-calls.ts, 500 customers a batch)', target: 'info (docs/scaling.md)', measured: calls / billed.seconds, unit: 'calls/s', pass: null, note: `wall time on a shared machine; ${billed.charges.toLocaleString('en-GB')} Call Charges rows` })
  report.add({ name: billed.databaseCpu === null ? 'CPU a call billed (SQLite: the process, which is the database)' : 'database CPU a call billed (the backends)', target: 'info (issue 56: a quarter of 28.6 µs)', measured: (cpu / calls) * 1e6, unit: 'µs', pass: null })
  report.add({ name: 'the next run over the billed calls (nothing to bill): CPU a call read', target: 'info', measured: ((again.databaseCpu ?? again.processCpu) / calls) * 1e6, unit: 'µs', pass: null, note: `${again.charges} Call Charges rows` })
  const [after] = (await tableSizes(db, ['calls'])) ?? []
  if (after && size) {
    report.add({ name: 'calls table after billing, a call', target: `info (before billing: ${((size.heapBytes + size.indexBytes) / size.rows).toFixed(0)} B)`, measured: (after.heapBytes + after.indexBytes) / after.rows, unit: 'B', pass: null, note: `heap ${(after.heapBytes / after.rows).toFixed(0)} B, indexes ${(after.indexBytes / after.rows).toFixed(0)} B` })
  }
  const fileAfter = sqliteFileBytes(db)
  if (fileBefore !== null && fileAfter !== null) {
    report.add({ name: 'SQLite file after billing, a call', target: `info (before billing: ${(fileBefore / calls).toFixed(0)} B)`, measured: fileAfter / calls, unit: 'B', pass: null, note: 'the whole file, customers and numbers too' })
  }
  report.finish({ calls })
} finally {
  await db.dispose()
}

/** The SQLite file's bytes with its write-ahead log (null on Postgres): what the calls take there, with the rest. */
function sqliteFileBytes(db: BenchDatabase): number | null {
  if (!db.file) return null
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0)
  return size(db.file) + size(`${db.file}-wal`)
}

/** One pass of `billCalls` over every customer. */
interface BillPass {
  readonly seconds: number
  readonly charges: number
  readonly databaseCpu: number | null
  readonly processCpu: number
}

/**
 * Bills every call as a run's batches do, 500 customers a batch (the run's largest batch): the
 * batch's customers read, then `billCalls` in a transaction, through the platform's own store;
 * then again, as a later run would with the month billed and nothing new (what reading through
 * billed calls costs). On Postgres the backends' CPU is what is measured (their connections are
 * named); on SQLite the database runs in this process, so its CPU is counted whole.
 */
async function billAll(db: BenchDatabase, customers: number): Promise<{ first: BillPass; again: BillPass }> {
  const cpu = databaseCpu(db, 'bench_bill_calls')
  const databaseUrl = cpu ? `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}application_name=bench_bill_calls` : db.config.databaseUrl
  const platform = await openPlatform({ ...db.config, databaseUrl, clock: new FixedClock('2026-02-02T10:00:00.000Z' as never) })
  try {
    const ctx = platform.context
    const pass = async (): Promise<BillPass> => {
      const run = await ctx.store.repository('billingRuns').insert({ name: 'bench', cutoffDate: '2026-01-31' as never, status: 'Running', createdStamp: '2026-02-02T10:00:00.000Z' as never, updatedStamp: '2026-02-02T10:00:00.000Z' as never })
      // The run's bounds, as planRun takes them (the calls were imported under mark 0): the
      // second pass reads from the first's cutoff, as a run after a completed one does.
      const billing = await markRunCalls(ctx, run)
      await cpu?.sample()
      const cpuBefore = cpu?.seconds() ?? 0
      const processBefore = process.cpuUsage()
      const start = performance.now()
      let after = '0'
      for (let done = 0; done < customers; ) {
        const page = await ctx.store.runSource.customersAfter(after, 500)
        if (page.length === 0) break
        await ctx.store.transaction((store) => billCalls(ctx, store, page, '2026-01-31' as DateOnly, new Map(), billing))
        await cpu?.sample()
        done += page.length
        after = page.at(-1)!.id
      }
      const seconds = (performance.now() - start) / 1000
      const used = process.cpuUsage(processBefore)
      await cpu?.sample()
      const charges = (await ctx.store.repository('transactions').list({ where: [{ op: 'eq', column: 'billingRunID', value: run.id }], limit: 1_000_000, storedOnly: true })).length
      await ctx.store.repository('billingRuns').update(run.id, { status: 'Complete' })
      return { seconds, charges, databaseCpu: cpu ? cpu.seconds() - cpuBefore : null, processCpu: (used.user + used.system) / 1e6 }
    }
    return { first: await pass(), again: await pass() }
  } finally {
    await platform.close()
    await cpu?.close()
  }
}
