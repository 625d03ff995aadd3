import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer, startBaselineServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { runLoad, type LoadResult } from './support/load.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * GET one customer by ID at 50 connections: throughput at least 0.7 of the bare node:http +
 * one prepared statement baseline, p99 under 10 ms and within 1.5 times the baseline's. Then
 * the same targets for a list page of 100 customers (`?limit=100&idAfter=N`) against the
 * baseline serving that page from one prepared statement (issue 56).
 */
const args = parseArgs()
const report = new Report('get-customer', args)
const db = await openBenchDatabase(args.db, args.keep)
try {
  const customers = scaled(100_000, args.scale, 1000)
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 0, featuresPerCustomer: 0 })
  await writer.close()
  const api = await startApiServer(db)
  const baseline = await startBaselineServer(db)
  const floor = await startBaselineServer(db, 'h3')
  const duration = Math.max(3, Math.round(10 * Math.min(1, args.scale * 10)))
  const one = () => `${API}/customers/${1 + Math.floor(Math.random() * customers)}`
  const load = ({ origin, child }: { origin: string; child: { pid: number } }, seconds: number, connections = 50, path = one) =>
    runLoad({
      url: `${origin}${path()}`,
      serverPid: child.pid,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${db.key}` },
      setup: (req) => ({ ...req, path: path() }),
    })
  /** Our throughput, CPU per request and p99 against the baseline's, as the report's rows. */
  const compare = (label: string, ours: LoadResult[], bases: LoadResult[]) => {
    const of = (rs: LoadResult[], f: (r: LoadResult) => number) => median(rs.map(f))
    const [rps, baseRps] = [of(ours, (r) => r.rps), of(bases, (r) => r.rps)]
    const failures = ours.reduce((s, r) => s + r.failures, 0)
    report.add({ name: `${label}throughput (50 connections)`, target: '>= 0.7 x baseline', measured: rps, unit: 'req/s', baseline: baseRps, ratio: rps / baseRps, pass: rps / baseRps >= 0.7 && failures === 0, note: failures ? `${failures} failed requests` : undefined })
    const [cpu, baseCpu] = [of(ours, (r) => r.cpuMsPerRequest ?? NaN), of(bases, (r) => r.cpuMsPerRequest ?? NaN)]
    report.add({ name: `${label}server CPU time per request`, target: 'informative', measured: cpu, unit: 'ms', baseline: baseCpu, ratio: baseCpu / cpu, pass: null })
    const [p99, baseP99] = [of(ours, (r) => r.p99), of(bases, (r) => r.p99)]
    report.add({ name: `${label}p99 latency (50 connections) against the baseline`, target: '<= 1.5 x baseline', measured: p99, unit: 'ms', baseline: baseP99, ratio: p99 / baseP99, pass: p99 <= 1.5 * baseP99 })
    return { baseRps, p99 }
  }
  try {
    await load(api, 2)
    await load(baseline, 2)
    await load(floor, 2)
    const ours: LoadResult[] = []
    const bases: LoadResult[] = []
    const floors: LoadResult[] = []
    for (let run = 0; run < args.runs; run++) {
      ours.push(await load(api, duration))
      bases.push(await load(baseline, duration))
      floors.push(await load(floor, duration))
      const [o, b] = [ours.at(-1)!, bases.at(-1)!]
      log(`run ${run + 1}: api ${Math.round(o.rps)} req/s p99 ${o.p99} ms ${o.cpuMsPerRequest?.toFixed(3)} CPU ms/req; baseline ${Math.round(b.rps)} req/s p99 ${b.p99} ms ${b.cpuMsPerRequest?.toFixed(3)} CPU ms/req`)
    }
    const { baseRps, p99 } = compare('', ours, bases)
    const floorRps = median(floors.map((r) => r.rps))
    const floorP99 = median(floors.map((r) => r.p99))
    report.add({ name: 'h3 floor: same statement and JSON through h3 alone', target: 'informative', measured: floorRps, unit: 'req/s', baseline: baseRps, ratio: floorRps / baseRps, pass: null, note: `p99 ${floorP99} ms at 50 connections` })
    // Little's law: at 50 connections the mean latency is 50 / throughput, so a p99 under 10 ms
    // needs more than 5,000 req/s; the note gives the mean the baseline's own throughput allows.
    const floorMs = (50 / baseRps) * 1000
    report.add({
      name: 'p99 latency (50 connections)',
      target: '< 10 ms',
      measured: p99,
      unit: 'ms',
      baseline: median(bases.map((r) => r.p99)),
      pass: p99 < 10,
      note: `mean latency at the baseline's throughput: ${floorMs.toFixed(1)} ms; h3 alone with the same statement: p99 ${floorP99} ms`,
    })
    const light: LoadResult[] = []
    for (let run = 0; run < args.runs; run++) light.push(await load(api, Math.max(3, Math.round(duration / 2)), 5))
    report.add({ name: 'p99 latency (5 connections)', target: 'informative', measured: median(light.map((r) => r.p99)), unit: 'ms', pass: null, note: `${Math.round(median(light.map((r) => r.rps)))} req/s` })

    const page = () => `${API}/customers/?limit=100&idAfter=${Math.floor(Math.random() * Math.max(1, customers - 100))}`
    await load(api, 2, 50, page)
    await load(baseline, 2, 50, page)
    const pages: LoadResult[] = []
    const basePages: LoadResult[] = []
    for (let run = 0; run < args.runs; run++) {
      pages.push(await load(api, duration, 50, page))
      basePages.push(await load(baseline, duration, 50, page))
      const [o, b] = [pages.at(-1)!, basePages.at(-1)!]
      log(`page run ${run + 1}: api ${Math.round(o.rps)} req/s p99 ${o.p99} ms ${o.cpuMsPerRequest?.toFixed(3)} CPU ms/req; baseline ${Math.round(b.rps)} req/s p99 ${b.p99} ms ${b.cpuMsPerRequest?.toFixed(3)} CPU ms/req`)
    }
    compare('page of 100 customers: ', pages, basePages)
  } finally {
    await api.stop()
    await baseline.stop()
    await floor.stop()
  }
  report.finish({ customers })
} finally {
  await db.dispose()
}
