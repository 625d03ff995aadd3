/**
 * Invoice preview (contract 16.1, issue 53): `previewInvoice` for one customer with 20 numbers,
 * 60 features and 5,000 unbilled calls, cutoff at the end of their month: p99 under 100 ms. The
 * preview runs the billing run's own code for the customer in a rolled-back transaction, so its
 * floor, measured in the same run, is what it cannot avoid: reading that customer's 5,000 calls
 * and 60 features through the store (no planning, no writes). Other customers (`--scale` × 1,000,
 * each with 3 features) are in the database as on a real platform.
 *
 * Then the customer's calls are billed (`billCalls`, as a run bills them: a `Call Charges` row a
 * number) and listed, 5,000 at once, with each call's derived `transactionID` (docs/scaling.md):
 * as items through the repository, and as GET /calls lists them (the database writes the JSON),
 * against the floor of their stored columns only, interleaved.
 *
 *   npm run bench:invoice-preview -- [--db sqlite|postgres] [--scale 1] [--runs 3] [--lists-only]
 *
 * `--lists-only` skips the preview's samples (the lists only).
 */
import { openPlatform } from '../apps/platform/platform.js'
import { previewInvoice } from '../core/billing/preview-invoice.js'
import { billCalls } from '../core/billing/bill-calls.js'
import { markRunCalls } from '../core/billing/run-call-mark.js'
import type { DateOnly } from '../core/dates/date-only.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { tableSizes } from './support/table-sizes.js'
import { median, percentile } from './support/stats.js'
import { API } from './support/api-server.js'

const args = parseArgs()
const report = new Report('invoice-preview', args)
const db = await openBenchDatabase(args.db, args.keep)
const NUMBERS = 20
const FEATURES_PER_NUMBER = 3
const CALLS = 5_000
const SAMPLES = 200
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers: scaled(1_000, args.scale, 100), numbersPerCustomer: 1, featuresPerCustomer: 3 })
  await writer.close()
  const platform = await openPlatform({ ...db.config, skipMigrations: true })
  try {
    const ok = async (method: string, path: string, body?: unknown, raw?: string) => {
      const res = await platform.app.request(`${API}${path}`, {
        method,
        headers: { authorization: `Bearer ${db.key}`, 'content-type': raw ? 'text/csv' : 'application/json' },
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      })
      const text = await res.text()
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
      return JSON.parse(text)
    }
    const tariff = await ok('POST', '/tariffs', { name: 'Preview Calls', baseRoundSeconds: 1 })
    await ok('POST', `/tariffs/${tariff.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.0200', costConnection: '0.0100' })
    const customer = await ok('POST', '/customers', { accountNumber: 'PREVIEW-1', companyName: 'Preview Ltd', defaultNationalTariff: 'Preview Calls', VATRate: 'Standard 20%' })
    const c = customer.id as string
    const numbers: string[] = []
    for (let i = 0; i < NUMBERS; i++) {
      const number = `01632 96${String(i).padStart(4, '0')}`
      const n = await ok('POST', `/customers/${c}/numbers`, { number })
      numbers.push(number.replace(/\s/g, ''))
      for (let f = 0; f < FEATURES_PER_NUMBER; f++) {
        await ok('POST', `/numbers/${n.id}/features`, { featureType: ['Line Rental', 'Call Recording', 'Hosted Seat'][f], startDate: '2025-11-15', serviceCharge: `${5 + f}.50`, serviceChargeInterval: f === 2 ? 'Calendar Quarterly' : 'Calendar Monthly', initialFeatureDiscountScheme: f === 1 ? '10% First Year' : 'None' })
      }
    }
    const rows = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
    for (let i = 0; i < CALLS; i++) {
      const second = 8 * 3600 + ((i * 677) % (10 * 3600))
      const time = `${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}`
      rows.push(`${numbers[i % NUMBERS]},0161 496 ${String(i % 10_000).padStart(4, '0')},2026-01-${String(2 + (i % 28)).padStart(2, '0')}T${time}Z,${15 + ((i * 53) % 900)},NAT,national,Gamma,PV-${i}`)
    }
    await ok('POST', '/usageFiles?name=preview.csv', undefined, rows.join('\n') + '\n')
    const ctx = platform.context
    const preview = () => previewInvoice(ctx, c, { cutoffDate: '2026-01-31' })
    const first = await preview()
    if (!first.invoice || first.lines.length === 0) throw new Error(`no invoice previewed: ${first.reason}`)
    log(`preview: ${first.lines.length} lines, total ${first.invoice.totalAmount}`)
    const floor = async () => {
      // Stored columns, as the run reads them: the derived transactionID is a list's, not the run's.
      await ctx.store.repository('calls').list({ where: [{ op: 'eq', column: 'customerID', value: c }], limit: CALLS + 1, storedOnly: true })
      await ctx.store.repository('features').list({ where: [{ op: 'eq', column: 'customerID', value: c }], limit: 1000 })
    }
    const previews = process.argv.includes('--lists-only') ? 0 : args.runs
    for (let i = 0; i < 20; i++) await preview()
    for (let i = 0; i < 20; i++) await floor()
    const p99s: number[] = []
    const p50s: number[] = []
    const floors: number[] = []
    const loads: string[] = []
    for (let run = 0; run < previews; run++) {
      const ms: number[] = []
      const fl: number[] = []
      // Interleaved, so both see the same load on the shared machine.
      for (let i = 0; i < SAMPLES; i++) {
        let t = performance.now()
        await preview()
        ms.push(performance.now() - t)
        t = performance.now()
        await floor()
        fl.push(performance.now() - t)
      }
      p99s.push(percentile(ms, 99))
      p50s.push(percentile(ms, 50))
      floors.push(percentile(fl, 50))
      loads.push((await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '))
      log(`run ${run + 1}: preview p50 ${p50s.at(-1)!.toFixed(1)} ms p99 ${p99s.at(-1)!.toFixed(1)} ms; floor p50 ${floors.at(-1)!.toFixed(1)} ms; load ${loads.at(-1)}`)
    }
    const p99 = median(p99s)
    const p50 = median(p50s)
    const floorMs = median(floors)
    if (previews) report.add({ name: 'preview p99 (20 numbers, 60 features, 5,000 calls)', target: '< 100 ms', measured: p99, unit: 'ms', baseline: floorMs, ratio: floorMs / p99, pass: p99 < 100, note: `p50 ${p50.toFixed(1)} ms; floor (read its calls and features) p50 ${floorMs.toFixed(1)} ms; load ${loads.join(' | ')}` })

    // The calls billed, then listed with the transactionID derived from the run's rows.
    const stamp = '2026-02-02T10:00:00.000Z' as never
    const billing = await markRunCalls(ctx, await ctx.store.repository('billingRuns').insert({ name: 'bench', cutoffDate: '2026-01-31' as never, status: 'Running', createdStamp: stamp, updatedStamp: stamp }))
    const page = await ctx.store.runSource.customersAfter(String(BigInt(c) - 1n), 1)
    await ctx.store.transaction((store) => billCalls(ctx, store, page, '2026-01-31' as DateOnly, new Map(), billing))
    await ctx.store.repository('billingRuns').update(billing.id, { status: 'Complete' })
    // Statistics settled, and the index entries of the previews' rolled-back rows gone (Postgres).
    await tableSizes(db, ['transactions', 'calls'])
    const where = [{ op: 'eq', column: 'customerID', value: c }] as const
    const lists = {
      items: async () => ctx.store.repository('calls').list({ where, limit: CALLS + 1 }),
      json: async () => ctx.store.listJson.list('calls', { where, limit: CALLS + 1 }),
      stored: async () => ctx.store.repository('calls').list({ where, limit: CALLS + 1, storedOnly: true }),
    }
    const billed = (await lists.items()).filter((call) => call.transactionID).length
    if (billed !== CALLS) throw new Error(`${billed} of ${CALLS} calls billed`)
    const times = { items: [] as number[], json: [] as number[], stored: [] as number[] }
    for (let i = 0; i < 10; i++) for (const list of Object.values(lists)) await list()
    for (let run = 0; run < args.runs; run++) {
      for (let i = 0; i < SAMPLES / 4; i++) {
        for (const [name, list] of Object.entries(lists)) {
          const t = performance.now()
          await list()
          times[name as keyof typeof times].push(performance.now() - t)
        }
      }
      loads.push((await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '))
    }
    const stored = percentile(times.stored, 50)
    for (const name of ['items', 'json'] as const) {
      const ms = percentile(times[name], 50)
      log(`list of ${CALLS} billed calls (${name}): p50 ${ms.toFixed(1)} ms; stored columns only p50 ${stored.toFixed(1)} ms`)
      report.add({ name: `list ${CALLS} billed calls with transactionID (${name === 'items' ? 'repository items' : 'JSON as GET /calls'}), p50`, target: 'info (issue 56: about the stored columns\' cost)', measured: ms, unit: 'ms', baseline: stored, ratio: stored / ms, pass: null, note: `stored columns only p50 ${stored.toFixed(1)} ms; load ${loads.slice(-args.runs).join(' | ')}` })
    }
    report.finish({ lines: first.lines.length })
  } finally {
    await platform.close()
  }
} finally {
  await db.dispose()
}
