import { loadavg } from 'node:os'
import { connect } from '../adapters/persistence/connect.js'
import { rebuildJournalLines } from '../adapters/persistence/repositories/invoice-journal-lines.js'
import { keepCommissionTerms } from '../adapters/persistence/reports/commission-terms.js'
import { sql } from 'kysely'
import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer } from './support/api-server.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { cpuMsOf, rssOf } from './support/machine.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Contract 16.2-16.4: on the billing bench's database (1,000,000 features of 200,000 customers,
 * three numbers each) billed for January, with 5,000,000 calls on its Call Charges rows: the
 * margin by customer for the month, one holder's commission statement and the run's journal,
 * each under 2 s with the server's memory flat (the answers stream). The ledger is seeded as a
 * run writes it (straight into the tables; a billing run is bench/billing-run.ts's to measure):
 * one Recurring Charge per feature (posted under its code, 4000) and one Call Charges row per number, on one invoice per
 * customer. One feature in a thousand is Alice Morgan's, at 10 %.
 */
const args = parseArgs()
const more = process.argv.includes('--more')
// --reuse <SQLite file | Postgres schema>: measure a database a --keep run seeded, without seeding it again.
const reuseAt = process.argv.indexOf('--reuse')
const reuse = reuseAt < 0 ? null : process.argv[reuseAt + 1]
// --only <margin|commission|journal>: measure that report's answers alone (with --more, its further ones too).
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt < 0 ? null : process.argv[onlyAt + 1]
if (only !== null && !['margin', 'commission', 'journal'].includes(only)) throw new Error(`--only must be margin, commission or journal (got ${only})`)
const report = new Report('reports', args)
const features = scaled(1_000_000, args.scale, 1_000)
const customers = Math.ceil(features / 5)
const numbers = customers * 3
const calls = scaled(5_000_000, args.scale, 5_000)
const callsPerNumber = Math.max(1, Math.floor(calls / numbers))
const STAMP = '2026-02-01T09:00:00.000Z'
const t = (name: string): BulkColumn => ({ name, type: 'text' })
const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
const n = (name: string): BulkColumn => ({ name, type: 'integer' })

const db = await openBenchDatabase(args.db, args.keep, reuse)
if (args.keep || reuse !== null) log(`kept database: --reuse ${db.file ?? db.schema}`)
try {
  if (reuse === null) await seed()
  async function seed(): Promise<void> {
    const writer = openBulkWriter(db)
    const started = performance.now()
    await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 5 })
    await writer.exec(`update features set "carrier" = case when id % 2 = 0 then 'Gamma' else 'Daisy' end, "serviceChargeCarrier" = 40000, "serviceTransactionCode" = '4000'`)
    await writer.exec(`update features set "commissionHolder" = 'Alice Morgan', "serviceChargeCommission" = 100000, "serviceChargeCommissionType" = 'Percentage' where id % 1000 = 0`)
    await writer.insert('billing_runs', [b('id'), t('name'), t('status'), t('invoiceDate'), t('cutoffDate'), t('createdStamp'), t('updatedStamp')], [[1, 'January', 'Complete', '2026-01-31', '2026-01-31', STAMP, STAMP]])
    // Invoice i is customer i's: 5 × 100.00 + its calls, 20 % VAT.
    const callsNet = 3 * callsPerNumber * 500
    await writer.insert('invoices', [b('id'), b('customerID'), b('billingRunID'), t('invoiceDate'), t('dueDate'), t('invoiceNumber'), b('netAmount'), b('VATAmount'), b('totalAmount'), t('status'), t('createdStamp'), t('updatedStamp')], (function* () {
      for (let i = 1; i <= customers; i++) {
        const net = 500_000 + callsNet
        yield [i, i, 1, '2026-01-31', '2026-02-28', `INV-${i}`, net, net / 5, net + net / 5, 'Unpaid', STAMP, STAMP]
      }
    })())
    const txColumns = [b('id'), b('customerID'), b('numberID'), b('featureID'), t('transactionType'), t('description'), t('transactionDate'), t('dateFrom'), t('dateTo'), n('quantity'), b('amount'), t('VATRate'), b('VATAmount'), n('approved'), b('invoiceID'), b('billingRunID'), t('kind'), n('series'), n('revision'), b('rate'), b('carrierCost'), t('accountCode'), t('createdStamp'), t('updatedStamp')]
    await writer.insert('transactions', txColumns, (function* () {
      for (let f = 1; f <= customers * 5; f++) {
        const c = Math.ceil(f / 5)
        const k = (f - 1) % 5
        yield [f, c, k < 3 ? (c - 1) * 3 + k + 1 : null, f, 'Recurring Charge', 'Line Rental', '2026-01-01', '2026-01-01', '2026-01-31', 1, 100_000, 'Standard 20%', 20_000, 1, c, 1, 'recurring', 0, 0, 100_000, 40_000, '4000', STAMP, STAMP]
      }
      for (let num = 1; num <= numbers; num++) {
        const c = Math.ceil(num / 3)
        yield [customers * 5 + num, c, num, null, 'Call Charges', `Calls (${callsPerNumber})`, '2026-01-31', '2026-01-01', '2026-01-31', callsPerNumber, callsPerNumber * 500, 'Standard 20%', callsPerNumber * 100, 1, c, 1, null, null, null, null, callsPerNumber * 200, null, STAMP, STAMP]
      }
    })())
    const callColumns = [b('customerID'), b('numberID'), t('callingNumber'), t('dialledNumber'), t('startTime'), n('durationSeconds'), t('callType'), t('chargeBand'), t('carrier'), b('cost'), b('carrierCost'), n('rated'), n('deleted'), b('transactionID'), t('fingerprint'), t('createdStamp'), t('updatedStamp')]
    await writer.insert('calls', callColumns, (function* () {
      let k = 0
      for (let num = 1; num <= numbers; num++) {
        for (let j = 0; j < callsPerNumber; j++, k++) {
          yield [Math.ceil(num / 3), num, '01632960000', '07700900000', `2026-01-${String((j % 28) + 1).padStart(2, '0')}T10:00:00.000Z`, 60, j % 3 === 0 ? 'mobile' : 'national', j % 3 === 0 ? 'MOB' : 'NAT', j % 2 ? 'Gamma' : 'Daisy', 500, 200, 1, 0, customers * 5 + num, `bench-${k}`, STAMP, STAMP]
        }
      }
    })())
    await writer.finish(['billing_runs', 'invoices', 'transactions', 'calls', 'features'])
    // The invoices' journal lines, as a run writes them with its invoices (migration 0060), by the same statement.
    const platformDb = connect(db.childUrl)
    try {
      await rebuildJournalLines(platformDb.db)
      // And the features' commission terms, kept as a run keeps them when it completes (migration
      // 0071): a complete run's statement reads them, and without them it was empty.
      await keepCommissionTerms(platformDb.db, platformDb.dialect, sql<boolean>`i."billingRunID" = 1`, {})
    } finally {
      await platformDb.close()
    }
    // Postgres: the tables as autovacuum leaves them once it has been by, untimed. Fresh from the
    // load, no page is marked all-visible, so a covering index is read with the heap beside it
    // (a journal page's index-only read 290 ms instead of 990 ms once vacuumed, bench/RESULTS.md).
    if (db.kind === 'postgres') for (const table of ['customers', 'features', 'invoices', 'transactions', 'calls', 'invoice_journal_lines', 'commission_terms']) await writer.exec(`vacuum (analyze) ${table}`)
    await writer.close()
    log(`seeded the ledger: ${(customers * 5 + numbers).toLocaleString('en-GB')} rows on ${customers.toLocaleString('en-GB')} invoices, ${(numbers * callsPerNumber).toLocaleString('en-GB')} calls, in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }

  const allRequests = [
    { report: 'margin', name: `margin by customer for January (${customers.toLocaleString('en-GB')} customers, CSV)`, path: '/reports/margin?from=2026-01-01&to=2026-01-31&groupBy=customer', csv: true },
    { report: 'commission', name: `one commission statement (Alice Morgan, ${Math.floor(features / 1000).toLocaleString('en-GB')} features)`, path: '/commissionStatements?billingRunID=1&holder=Alice%20Morgan', csv: false },
    { report: 'journal', name: `the run's journal (${customers.toLocaleString('en-GB')} invoices, CSV)`, path: '/billingRuns/1/journal', csv: true },
    // --more: answers without a target of their own, over the 5,000,000 calls or every holder.
    ...(more
      ? [
          { report: 'commission', name: 'every holder\'s commission statements of the run', path: '/commissionStatements?billingRunID=1', csv: false, info: true },
          ...(['carrier', 'featureType', 'callClass', 'month'] as const).map((groupBy) => ({ report: 'margin', name: `margin by ${groupBy} for January (CSV)`, path: `/reports/margin?from=2026-01-01&to=2026-01-31&groupBy=${groupBy}`, csv: true, info: true })),
        ]
      : []),
  ]
  const requests = allRequests.filter((r) => only === null || r.report === only)
  const results = requests.map(() => ({ seconds: [] as number[], cpu: [] as number[], flat: [] as number[], peak: 0, bytes: 0 }))
  for (let run = 1; run <= args.runs; run++) {
    const api = await startApiServer(db)
    for (const [i, r] of requests.entries()) {
      const rss: number[] = []
      const sampler = setInterval(async () => {
        const mb = await rssOf(api.child.pid)
        if (mb !== null) rss.push(mb)
      }, 100)
      const load = loadavg()[0].toFixed(2)
      // The server's CPU time over the answer: on the shared, loaded machine, wall time is often a multiple of it.
      const cpuBefore = (await cpuMsOf(api.child.pid)) ?? 0
      const start = performance.now()
      const res = await fetch(`${api.origin}${API}${r.path}`, { headers: { authorization: `Bearer ${db.key}`, accept: r.csv ? 'text/csv' : 'application/json' } })
      if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${await res.text()}`)
      let bytes = 0
      let tail = ''
      for await (const chunk of res.body as any) {
        bytes += chunk.length
        tail = (tail + Buffer.from(chunk).toString()).slice(-200)
      }
      const seconds = (performance.now() - start) / 1000
      const cpu = (((await cpuMsOf(api.child.pid)) ?? 0) - cpuBefore) / 1000
      clearInterval(sampler)
      const quarter = Math.floor(rss.length / 4)
      const flat = quarter > 0 ? median(rss.slice(-quarter)) - median(rss.slice(quarter, 2 * quarter)) : 0
      results[i].seconds.push(seconds)
      results[i].cpu.push(cpu)
      results[i].flat.push(flat)
      results[i].peak = Math.max(results[i].peak, ...rss)
      results[i].bytes = bytes
      log(`run ${run}: ${r.name}: ${seconds.toFixed(2)} s (server CPU ${cpu.toFixed(2)} s), ${(bytes / 2 ** 20).toFixed(1)} MB, server RSS peak ${Math.max(0, ...rss).toFixed(0)} MB, last quarter − second quarter ${flat.toFixed(0)} MB, load ${load}; ends …${tail.slice(-80).replace(/\r?\n/g, ' ')}`)
    }
    await api.stop()
  }
  for (const [i, r] of requests.entries()) {
    const seconds = median(results[i].seconds)
    report.add({ name: r.name, target: 'info' in r ? 'none' : '< 2 s', measured: seconds, unit: 's', pass: 'info' in r ? null : seconds < 2, note: `runs ${results[i].seconds.map((s) => s.toFixed(2)).join(' / ')}, server CPU ${results[i].cpu.map((s) => s.toFixed(2)).join(' / ')} s; ${(results[i].bytes / 2 ** 20).toFixed(1)} MB answered; server RSS peak ${results[i].peak.toFixed(0)} MB, growth over the answer ${median(results[i].flat).toFixed(0)} MB` })
  }
  report.finish({ features, customers, calls: numbers * callsPerNumber })
} finally {
  await db.dispose()
}
