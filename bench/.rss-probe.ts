// Temporary probe: RSS of the server over an import of N rows.
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { once } from 'node:events'
import { request } from 'node:http'
import { API, startApiServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { numberOf, seedCustomers } from './support/fixtures.js'
import { rssOf } from './support/machine.js'
const rows = Number(process.argv[2] ?? 1_000_000)
const db = await openBenchDatabase('sqlite')
const w = openBulkWriter(db); await seedCustomers(w, { customers: 10_000, numbersPerCustomer: 3, featuresPerCustomer: 0 }); await w.exec(`update customers set "defaultMobileTariff" = 'UK Mobile'`); await w.close()
const file = '/tmp/probe.csv'
const out = createWriteStream(file); out.write('callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n')
for (let n = 0; n < rows; n++) { if (!out.write(`${numberOf(1 + (n % 10000), n % 3)},0770${String(n).padStart(8, '0')},2026-01-${String(1 + (n % 28)).padStart(2, '0')}T10:00:00Z,60,MOB,mobile,Gamma\n`)) await once(out, 'drain') }
out.end(); await once(out, 'finish')
const api = await startApiServer(db)
const t = setInterval(async () => console.log('rss', Math.round((await rssOf(api.child.pid)) ?? 0)), 2000)
const start = performance.now()
await new Promise<void>((resolve, reject) => {
  const req = request(`${api.origin}${API}/usageFiles/`, { method: 'POST', headers: { authorization: `Bearer ${db.key}`, 'content-type': 'text/csv', 'content-length': statSync(file).size } })
  req.on('response', (res) => { res.resume(); res.on('end', () => { console.log('status', res.statusCode); resolve() }) }); req.on('error', reject)
  createReadStream(file).pipe(req)
})
console.log('seconds', ((performance.now() - start) / 1000).toFixed(1))
clearInterval(t); await api.stop(); await db.dispose()
