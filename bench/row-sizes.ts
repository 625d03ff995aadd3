import { createHash } from 'node:crypto'
import pg from 'pg'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { openBenchDatabase, POSTGRES_URL } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { tableSizes } from './support/table-sizes.js'

/**
 * What a rated call costs on disk (Postgres): 1,000,000 calls as an import stores them (the
 * columns of call-inserts.ts, a SHA-256 fingerprint each, rated to a customer and number),
 * bulk-inserted, then measured heap and indexes apart, with the time the insert took. The
 * billing-run bench (`--workers`) measures the other tables; docs/scaling.md plans from both.
 *
 * Then the calls are billed as a billing run bills them (core/billing/bill-calls.ts), without the
 * rest of the run: for each batch of 500 customers, their unbilled calls read whole, then each
 * number's calls stamped with a transaction ID by one UPDATE of their IDs. A run does this to
 * every call of the month (Postgres writes a new version of each row): the figure is what the
 * monthly run costs per call, which the billing-run bench (no calls) does not show.
 */
const args = parseArgs()
const report = new Report('row-sizes', args)
const calls = scaled(1_000_000, args.scale, 10_000)
const db = await openBenchDatabase(args.db, args.keep)
try {
  const customers = Math.ceil(calls / 100)
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 0 })
  const t = (name: string): BulkColumn => ({ name, type: 'text' })
  const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
  const i = (name: string): BulkColumn => ({ name, type: 'integer' })
  const columns = [b('customerID'), b('numberID'), t('callingNumber'), t('dialledNumber'), t('startTime'), i('durationSeconds'), t('callType'), t('chargeBand'), t('carrier'), b('cost'), i('ratedDuration'), t('timeBand'), i('rated'), i('deleted'), t('fingerprint'), t('createdStamp'), t('updatedStamp')]
  const stamp = '2026-02-01T03:00:00.000Z'
  const start = performance.now()
  await writer.insert('calls', columns, (function* () {
    for (let n = 0; n < calls; n++) {
      const customer = (n % customers) + 1
      const number = (customer - 1) * 3 + (n % 3) + 1
      const calling = `01632${String(number).padStart(6, '0')}`
      const dialled = `07700${String(900000 + (n % 100000)).padStart(6, '0')}`
      const startTime = new Date(Date.UTC(2026, 0, 1) + (n % 2_678_400) * 1000).toISOString()
      const fingerprint = createHash('sha256').update(`${calling}|${dialled}|${startTime}|${n}`).digest('hex')
      yield [customer, number, calling, dialled, startTime, 30 + (n % 600), 'Mobile', 'UK Mobile', 'BT', 500 + (n % 5000), 60 + (n % 600), 'Peak', 1, 0, fingerprint, stamp, stamp]
    }
  })())
  const ms = performance.now() - start
  await writer.close()
  log(`${calls.toLocaleString('en-GB')} calls bulk-inserted in ${(ms / 1000).toFixed(1)} s`)
  const [size] = (await tableSizes(db, ['calls'])) ?? []
  if (size) {
    report.add({ name: 'a rated call on disk: heap', target: 'info (docs/scaling.md)', measured: size.heapBytes / size.rows, unit: 'B', pass: null })
    report.add({ name: 'a rated call on disk: indexes', target: 'info (docs/scaling.md)', measured: size.indexBytes / size.rows, unit: 'B', pass: null, note: 'fingerprint (unique), customer, number, rated and unrated indexes' })
  }
  report.add({ name: 'calls bulk-inserted (the import floor)', target: 'info', measured: calls / (ms / 1000), unit: 'rows/s', pass: null })
  if (db.kind === 'postgres') {
    const billed = await billCalls(db.schema!, customers)
    report.add({ name: 'calls billed as a run bills them (read, then stamped per number)', target: 'info (docs/scaling.md)', measured: calls / billed.seconds, unit: 'calls/s', pass: null, note: `${billed.statements.toLocaleString('en-GB')} statements; database backend CPU ${((billed.backendCpu / calls) * 1e6).toFixed(1)} µs/call` })
    const [after] = (await tableSizes(db, ['calls'])) ?? []
    if (after) log(`calls after billing: heap ${(after.heapBytes / 2 ** 20).toFixed(0)} MB, indexes ${(after.indexBytes / 2 ** 20).toFixed(0)} MB (every row written twice)`)
  }
  report.finish({ calls })
} finally {
  await db.dispose()
}

/** Bills every call, 500 customers a batch (the run's largest batch), the way bill-calls.ts reads and stamps them. */
async function billCalls(schema: string, customers: number): Promise<{ seconds: number; statements: number; backendCpu: number }> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` })
  await client.connect()
  try {
    const { rows: pidRows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
    const { cpuSecondsOf } = await import('./support/database-cpu.js')
    const cpuBefore = cpuSecondsOf(pidRows[0].pid)
    let statements = 0
    let transactionID = 0
    const start = performance.now()
    for (let first = 1; first <= customers; first += 500) {
      const ids = Array.from({ length: Math.min(500, customers - first + 1) }, (_, k) => first + k)
      await client.query('begin')
      const { rows } = await client.query<{ id: string; numberID: string }>(
        'select * from calls where "customerID" = any($1::bigint[]) and rated = 1 and deleted = 0 and "transactionID" is null and "startTime" <= $2 order by id',
        [ids, '2026-02-01T00:00:00.000Z'],
      )
      statements++
      const byNumber = new Map<string, string[]>()
      for (const r of rows) byNumber.set(String(r.numberID), [...(byNumber.get(String(r.numberID)) ?? []), String(r.id)])
      for (const list of byNumber.values()) {
        await client.query('update calls set "transactionID" = $1 where id = any($2::bigint[])', [++transactionID, list])
        statements++
      }
      await client.query('commit')
    }
    return { seconds: (performance.now() - start) / 1000, statements, backendCpu: cpuSecondsOf(pidRows[0].pid) - cpuBefore }
  } finally {
    await client.end()
  }
}
