import { loadavg } from 'node:os'
import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { seedCustomers } from './support/fixtures.js'
import { rssOf } from './support/machine.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Contract 17.4: a carrier's bill of 200,000 lines reconciled against 1,000,000 features of that
 * carrier in under 30 s, the server's memory flat (it holds the bill, never the features). Each
 * feature has its own product and reference; nine lines in ten match one, the rest match none;
 * a hundredth of the features match by pattern.
 */
const args = parseArgs()
const report = new Report('carrier-bills', args)
const features = scaled(1_000_000, args.scale, 10_000)
const lines = scaled(200_000, args.scale, 2_000)
const customers = Math.ceil(features / 10)

const db = await openBenchDatabase(args.db, args.keep)
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 1, featuresPerCustomer: 10 })
  await writer.exec(`update features set "carrier" = 'Gamma', "carrierProduct" = 'P' || (id % 100), "carrierReference" = 'R' || id, "serviceChargeCarrier" = 40000`)
  await writer.exec(`update features set "carrierProduct" = null, "carrierProductMatches" = 'P*' where id % 100 = 7`)
  if (db.kind === 'postgres') await writer.exec('vacuum (analyze) features')
  await writer.close()
  // Line k matches feature k × 5 + 1 (nine in ten), or no feature (product X).
  let csv = 'productCode,reference,description,quantity,cost\n'
  for (let k = 0; k < lines; k++) {
    const id = k * Math.floor(features / lines) + 1
    csv += k % 10 === 9 ? `X,R${id},unknown,1,4.00\n` : `P${id % 100},R${id},service,1,${k % 20 === 0 ? '4.50' : '4.00'}\n`
  }
  const runs: { seconds: number; peak: number; flat: number; load: string }[] = []
  for (let run = 1; run <= args.runs; run++) {
    const api = await startApiServer(db)
    const startRss = (await rssOf(api.child.pid)) ?? 0
    const rss: number[] = []
    const sampler = setInterval(async () => {
      const mb = await rssOf(api.child.pid)
      if (mb !== null) rss.push(mb)
    }, 200)
    const load = loadavg().map((l) => l.toFixed(2)).join(' ')
    const start = performance.now()
    const res = await fetch(`${api.origin}${API}/carrierBills?carrier=Gamma&period=2026-01`, { method: 'POST', headers: { authorization: `Bearer ${db.key}`, 'content-type': 'text/csv' }, body: csv })
    const seconds = (performance.now() - start) / 1000
    clearInterval(sampler)
    const body = (await res.json()) as any
    if (res.status !== 201) throw new Error(`POST /carrierBills: ${res.status} ${JSON.stringify(body)}`)
    const expected = lines - Math.floor(lines / 10) - (lines % 10 === 0 ? 0 : 0)
    if (body.matchedCount !== expected && body.matchedCount !== lines - Math.ceil((lines - 9) / 10)) throw new Error(`unexpected counts: ${JSON.stringify(body)}`)
    const t = performance.now()
    const rec = await fetch(`${api.origin}${API}/carrierBills/${body.id}/reconciliation`, { headers: { authorization: `Bearer ${db.key}`, accept: 'text/csv' } })
    let bytes = 0
    for await (const chunk of rec.body as any) bytes += chunk.length
    const readSeconds = (performance.now() - t) / 1000
    await api.stop()
    const quarter = Math.floor(rss.length / 4)
    const flat = quarter > 0 ? median(rss.slice(-quarter)) - median(rss.slice(quarter, 2 * quarter)) : 0
    const peak = Math.max(...rss, startRss)
    runs.push({ seconds, peak, flat, load: `${load} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}` })
    log(`run ${run}: ${lines.toLocaleString('en-GB')} lines against ${features.toLocaleString('en-GB')} features in ${seconds.toFixed(1)} s (matched ${body.matchedCount}, costDiffers ${body.costDiffersCount}, notBilled ${body.notBilledCount}, notOnCarrierBill ${body.notOnCarrierBillCount}); server RSS ${startRss.toFixed(0)} → peak ${peak.toFixed(0)} MB, last quarter − second quarter ${flat.toFixed(0)} MB; reconciliation CSV ${(bytes / 2 ** 20).toFixed(1)} MB read in ${readSeconds.toFixed(1)} s; load ${runs.at(-1)!.load}`)
  }
  const seconds = median(runs.map((r) => r.seconds))
  report.add({
    name: `carrier bill of ${lines.toLocaleString('en-GB')} lines reconciled against ${features.toLocaleString('en-GB')} features (POST /carrierBills, stored and reconciled)`,
    target: `< ${((30 * lines) / 200_000).toFixed(1)} s (30 s for 200,000 lines, pro rata)`,
    measured: seconds,
    unit: 's',
    pass: seconds < (30 * lines) / 200_000,
    note: runs.map((r) => `${r.seconds.toFixed(1)} s, load ${r.load}`).join('; '),
  })
  report.add({ name: 'server RSS over the reconciliation: median of its last quarter minus median of its second', target: '<= 20 MB (flat)', measured: median(runs.map((r) => r.flat)), unit: 'MB', pass: median(runs.map((r) => r.flat)) <= 20, note: `peak ${Math.max(...runs.map((r) => r.peak)).toFixed(0)} MB` })
  report.finish({ features, lines })
} finally {
  await db.dispose()
}
