import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer, startBaselineServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { accountNumberOf, crmReferenceOf, numberOf, seedCustomers } from './support/fixtures.js'
import { timedGetOk } from './support/http-client.js'
import { measurePageFloor } from './support/page-floor.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Lists on 1,000,000 customers with 3 numbers and 5 features each: searches under 2 ms median,
 * a page of 1000 with expandNumbers under 100 ms, idAfter paging at constant cost per page.
 */
const args = parseArgs()
const report = new Report('lists', args)
const db = await openBenchDatabase(args.db, args.keep)
const customers = scaled(1_000_000, args.scale, 5000)
const pick = () => 1 + Math.floor(Math.random() * customers)
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 5 })
  await writer.close()
  const api = await startApiServer(db)
  const baseline = await startBaselineServer(db)
  try {
    const samples = Math.max(100, Math.round(300 * Math.min(1, args.scale * 10)))
    const base = `${api.origin}${API}`
    const measure = async (name: string, url: () => string, key: string | undefined, count: number, check?: (text: string) => void) => {
      for (let i = 0; i < 20; i++) await timedGetOk(url(), key)
      const times: number[] = []
      for (let i = 0; i < count; i++) {
        const r = await timedGetOk(url(), key)
        check?.(r.text)
        times.push(r.ms)
      }
      log(`${name}: median ${median(times).toFixed(2)} ms over ${count}`)
      return median(times)
    }
    const one = (text: string) => {
      if ((JSON.parse(text) as unknown[]).length !== 1) throw new Error(`expected one item: ${text.slice(0, 200)}`)
    }
    const floor = await measure('baseline: one row by ID over bare node:http', () => `${baseline.origin}${API}/customers/${pick()}`, undefined, samples)
    const searches: [string, () => string][] = [
      ['search customers by accountNumber', () => `${base}/customers/?accountNumber=${accountNumberOf(pick())}`],
      ['search customers by CRMReference', () => `${base}/customers/?CRMReference=${crmReferenceOf(pick())}`],
      ['search numbers by number', () => `${base}/numbers/?number=${numberOf(pick(), 1)}`],
    ]
    for (const [name, url] of searches) {
      const runs: number[] = []
      for (let r = 0; r < args.runs; r++) runs.push(await measure(name, url, db.key, samples, one))
      const ms = median(runs)
      report.add({ name: `${name} (median latency)`, target: '< 2 ms', measured: ms, unit: 'ms', baseline: floor, ratio: floor / ms, pass: ms < 2 })
    }

    const pageRuns: number[] = []
    const basePageRuns: number[] = []
    const pagePath = () => `/customers/?limit=1000&expandNumbers&idAfter=${Math.max(0, pick() - 1000)}`
    for (let r = 0; r < args.runs; r++) {
      pageRuns.push(await measure('page of 1000 customers with expandNumbers', () => `${base}${pagePath()}`, db.key, 20))
      basePageRuns.push(await measure('baseline: the same page from two prepared statements over bare node:http', () => `${baseline.origin}${API}${pagePath()}`, undefined, 20))
    }
    const page = median(pageRuns)
    const basePage = median(basePageRuns)
    const sample = await timedGetOk(`${base}${pagePath()}`, db.key)
    report.add({ name: 'page of 1000 customers with expandNumbers (median)', target: '< 100 ms', measured: page, unit: 'ms', baseline: basePage, ratio: basePage / page, pass: page < 100, note: `${(sample.text.length / 1e6).toFixed(1)} MB of JSON` })
    const pageFloor = await measurePageFloor(db, Array.from({ length: 20 }, () => Math.max(0, pick() - 1000)))
    report.add({
      name: 'that page read into JavaScript: its two statements with rows as arrays, then JSON of the arrays (in-process, no HTTP)',
      target: 'informative',
      measured: pageFloor.statementsMs + pageFloor.jsonMs,
      unit: 'ms',
      pass: null,
      note: `statements ${pageFloor.statementsMs.toFixed(1)} ms + JSON ${pageFloor.jsonMs.toFixed(1)} ms (${(pageFloor.jsonBytes / 1e6).toFixed(1)} MB without member names)`,
    })

    // Walk the whole table with idAfter, 1000 a page, timing every page.
    const times: number[] = []
    let after = '0'
    const walkStart = performance.now()
    for (;;) {
      const r = await timedGetOk(`${base}/customers/?limit=1000&idAfter=${after}`, db.key)
      const items = JSON.parse(r.text) as { id: string }[]
      if (items.length === 0) break
      times.push(r.ms)
      after = items.at(-1)!.id
      if (items.length < 1000) break
    }
    const walk = (performance.now() - walkStart) / 1000
    const tenth = Math.max(3, Math.floor(times.length / 10))
    const first = median(times.slice(1, tenth + 1))
    const last = median(times.slice(-tenth))
    log(`idAfter walk: ${times.length} pages in ${walk.toFixed(1)} s; first tenth ${first.toFixed(1)} ms, last tenth ${last.toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms`)
    report.add({
      name: 'idAfter paging, 1000 a page: last tenth vs first tenth of the table',
      target: 'constant (last/first <= 1.5)',
      measured: last,
      unit: 'ms/page',
      baseline: first,
      ratio: last / first,
      pass: last / first <= 1.5,
      note: `${times.length} pages, whole table in ${walk.toFixed(1)} s`,
    })
  } finally {
    await api.stop()
    await baseline.stop()
  }
  report.finish({ customers })
} finally {
  await db.dispose()
}
