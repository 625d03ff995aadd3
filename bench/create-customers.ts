import { parseArgs } from './support/args.js'
import { API, startApiServer, startBaselineServer } from './support/api-server.js'
import { openBenchDatabase } from './support/database.js'
import { runLoad, type LoadResult } from './support/load.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/** POST /customers with full validation: at least 3,000 per second on SQLite. */
const args = parseArgs()
const report = new Report('create-customers', args)
const db = await openBenchDatabase(args.db, args.keep)
let counter = 0
/** A realistic body: preset fields (validated against their lists), text, a number. */
const body = (prefix: string) =>
  JSON.stringify({
    accountNumber: `${prefix}${++counter}`,
    title: 'Ms',
    firstnames: 'Ada',
    lastname: `Lovelace ${counter}`,
    companyName: 'Analytical Engines Ltd',
    address1: '12 St James Square',
    postcode: 'SW1Y 4JH',
    country: 'GB',
    email: `ada${counter}@example.com`,
    VATRate: 'Standard 20%',
    paymentTerms: 30,
  })
try {
  const api = await startApiServer(db)
  const baseline = await startBaselineServer(db)
  const duration = Math.max(3, Math.round(10 * Math.min(1, args.scale * 10)))
  // `?recorded`: the floor that also writes the history entry and event a create commits with it.
  const load = ({ origin, child }: { origin: string; child: { pid: number } }, prefix: string, seconds: number, query = '') =>
    runLoad({
      url: `${origin}${API}/customers/${query}`,
      serverPid: child.pid,
      method: 'POST',
      connections: 50,
      duration: seconds,
      headers: { authorization: `Bearer ${db.key}`, 'content-type': 'application/json' },
      setup: (req) => ({ ...req, method: 'POST', body: body(prefix) }),
    })
  try {
    await load(api, 'WARM-A', 2)
    await load(baseline, 'WARM-B', 2)
    const ours: LoadResult[] = []
    const bases: LoadResult[] = []
    const recorded: LoadResult[] = []
    for (let run = 0; run < args.runs; run++) {
      ours.push(await load(api, `A${run}-`, duration))
      bases.push(await load(baseline, `B${run}-`, duration))
      recorded.push(await load(baseline, `C${run}-`, duration, '?recorded'))
      const [o, b, r] = [ours.at(-1)!, bases.at(-1)!, recorded.at(-1)!]
      // The children's logs are removed when the bench ends: show why requests failed while they are there.
      if (o.failures > 0) log(`the server's log ends:\n${api.child.log().slice(-3000)}`)
      log(`run ${run + 1}: api ${Math.round(o.rps)}/s p99 ${o.p99} ms ${o.cpuMsPerRequest?.toFixed(3)} CPU ms/req (${o.failures} failed); baseline ${Math.round(b.rps)}/s ${b.cpuMsPerRequest?.toFixed(3)} CPU ms/req; baseline with history and event ${Math.round(r.rps)}/s ${r.cpuMsPerRequest?.toFixed(3)} CPU ms/req p99 ${r.p99} ms`)
    }
    const failures = ours.reduce((s, r) => s + r.failures, 0)
    const rps = median(ours.map((r) => r.rps))
    const baseRps = median(bases.map((r) => r.rps))
    report.add({
      name: 'customers created per second (50 connections)',
      target: args.db === 'sqlite' ? '>= 3,000/s' : 'informative (target is for SQLite)',
      measured: rps,
      unit: '/s',
      baseline: baseRps,
      ratio: rps / baseRps,
      pass: args.db === 'sqlite' ? rps >= 3000 && failures === 0 : null,
      note: failures ? `${failures} failed requests` : undefined,
    })
    const recordedRps = median(recorded.map((r) => r.rps))
    report.add({ name: 'against a floor writing the same three rows', target: 'informative', measured: rps, unit: '/s', baseline: recordedRps, ratio: rps / recordedRps, pass: null })
    const cpu = median(ours.map((r) => r.cpuMsPerRequest ?? NaN))
    const baseCpu = median(bases.map((r) => r.cpuMsPerRequest ?? NaN))
    report.add({ name: 'server CPU time per request', target: 'informative', measured: cpu, unit: 'ms', baseline: baseCpu, ratio: baseCpu / cpu, pass: null })
    report.add({ name: 'p99 latency', target: 'informative', measured: median(ours.map((r) => r.p99)), unit: 'ms', pass: null })
  } finally {
    await api.stop()
    await baseline.stop()
  }
  report.finish()
} finally {
  await db.dispose()
}
