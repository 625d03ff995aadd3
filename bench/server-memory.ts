import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { accountNumberOf, seedCustomers } from './support/fixtures.js'
import { runLoad } from './support/load.js'
import { rssOf } from './support/machine.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Server memory: RSS under 200 MB after 1,000,000 requests, not growing: the median RSS over
 * the last quarter of the requests is at most 20 MB above the median over the second quarter
 * (RSS is sampled twice a second: garbage collection makes it a sawtooth, and a single reading
 * at a quarter's end lands anywhere on a tooth).
 */
const args = parseArgs()
const report = new Report('server-memory', args)
const db = await openBenchDatabase(args.db, args.keep)
const customers = scaled(100_000, args.scale, 1000)
const total = scaled(1_000_000, args.scale, 20_000)
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 5 })
  await writer.close()
  const api = await startApiServer(db)
  try {
    const pick = () => 1 + Math.floor(Math.random() * customers)
    // A mix of what clients do: fetch one, search, list a page, fetch a missing one (404).
    const paths = [
      () => `${API}/customers/${pick()}`,
      () => `${API}/customers/${pick()}`,
      () => `${API}/customers/?accountNumber=${accountNumberOf(pick())}`,
      () => `${API}/customers/${pick()}/numbers/?expandFeatures`,
      () => `${API}/customers/?limit=20&idAfter=${pick()}`,
      () => `${API}/customers/${customers + pick()}`,
    ]
    let n = 0
    const rss: number[] = [(await rssOf(api.child.pid)) ?? NaN]
    log(`server RSS at start: ${rss[0].toFixed(0)} MB; ${total.toLocaleString('en-GB')} requests in 4 quarters`)
    let failures = 0
    const medians: number[] = []
    for (let quarter = 1; quarter <= 4; quarter++) {
      const samples: number[] = []
      const sampler = setInterval(async () => {
        const mb = await rssOf(api.child.pid)
        if (mb !== null) samples.push(mb)
      }, 500)
      const r = await runLoad({
        url: `${api.origin}${API}/customers/1`,
        connections: 50,
        amount: Math.round(total / 4),
        headers: { authorization: `Bearer ${db.key}` },
        setup: (req) => ({ ...req, path: paths[n++ % paths.length]() }),
      })
      clearInterval(sampler)
      failures += r.failures - Math.round(r.total / paths.length) // the deliberate 404s
      rss.push((await rssOf(api.child.pid)) ?? NaN)
      medians.push(median(samples))
      log(`after quarter ${quarter}: RSS ${rss.at(-1)!.toFixed(0)} MB, median over the quarter ${medians.at(-1)!.toFixed(0)} MB, peak ${Math.max(...samples).toFixed(0)} MB (${Math.round(r.rps)} req/s, ${r.failures} non-2xx of ${r.total})`)
    }
    const end = rss.at(-1)!
    report.add({ name: `server RSS after ${total.toLocaleString('en-GB')} requests`, target: '< 200 MB', measured: end, unit: 'MB', baseline: rss[0], pass: end < 200, note: `at start ${rss[0].toFixed(0)} MB; by quarter ${rss.slice(1).map((x) => x.toFixed(0)).join(', ')}` })
    const growth = medians[3] - medians[1]
    report.add({
      name: 'RSS growth: median of the last quarter minus median of the second',
      target: '<= 20 MB (not growing)',
      measured: growth,
      unit: 'MB',
      pass: growth <= 20,
      note: `medians by quarter ${medians.map((x) => x.toFixed(0)).join(', ')} MB${Math.abs(failures) > total / 100 ? `; ~${failures} unexpected failures` : ''}`,
    })
  } finally {
    await api.stop()
  }
  report.finish({ customers, requests: total })
} finally {
  await db.dispose()
}
