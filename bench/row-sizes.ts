import { createHash } from 'node:crypto'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { tableSizes } from './support/table-sizes.js'

/**
 * What a rated call costs on disk (Postgres): 1,000,000 calls as an import stores them (the
 * columns of kysely-rating-data.ts, a SHA-256 fingerprint each, rated to a customer and number),
 * bulk-inserted, then measured heap and indexes apart, with the time the insert took. The
 * billing-run bench (`--workers`) measures the other tables; docs/scaling.md plans from both.
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
  report.finish({ calls })
} finally {
  await db.dispose()
}
