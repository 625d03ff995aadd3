import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer, type ApiServer } from './support/api-server.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { openBenchDatabase } from './support/database.js'
import { numberOf, seedCustomers } from './support/fixtures.js'
import { rssOf } from './support/machine.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'

/**
 * Contract 17.2: the rating bench's file with chargeBand and callClass left out, each record's
 * looked up by its dialled number in a 100,000-prefix destination table, against the same file
 * with them given, in the same run: given, looked up, given, … (each a new file into the same
 * server), each look-up import compared with the mean of the two given ones around it.
 */
const args = parseArgs()
const report = new Report('rating-destinations', args)
const customers = scaled(100_000, args.scale, 2000)
const rows = scaled(1_000_000, args.scale, 20_000)
const PREFIXES = 100_000
const dir = mkdtempSync(join(tmpdir(), 'bench-rating-dest-'))

/** The rating bench's records (bench/rating.ts `callLine`), with or without band and class. */
function callLine(n: number, seed: number, given: boolean): string {
  const i = 1 + ((n * 7919 + seed) % customers)
  const second = (n * 13) % 86_400
  const day = 1 + (n % 28)
  const time = `2026-01-${String(day).padStart(2, '0')}T${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}Z`
  return `${numberOf(i, n % 3)},0770${String(n + seed * 10_000_000).padStart(8, '0')},${time},${1 + (n % 600)},Gamma${given ? ',MOB,mobile' : ''}\n`
}

async function writeFile(path: string, seed: number, given: boolean): Promise<void> {
  const out = createWriteStream(path)
  out.write(`callingNumber,dialledNumber,startTime,durationSeconds,carrier${given ? ',chargeBand,callClass' : ''}\n`)
  let chunk = ''
  for (let n = 0; n < rows; n++) {
    chunk += callLine(n, seed, given)
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain')
      chunk = ''
    }
  }
  out.end(chunk)
  await once(out, 'finish')
}

/**
 * 100,000 prefixes over the world's country codes, 2 to 8 digits, nested as real tables are
 * (`44`, `447`, `4477`, `44770`, …): the file's `0770…` numbers walk seven digits deep.
 */
function prefixCsv(): string {
  const lines = ['prefix,chargeBand,callClass,description']
  const seen = new Set<string>()
  const add = (prefix: string, band: string, cls: string) => {
    if (seen.has(prefix) || seen.size >= PREFIXES) return
    seen.add(prefix)
    lines.push(`${prefix},${band},${cls},`)
  }
  add('44', 'GEO', 'national')
  for (const p of ['447', '4477', '44770', '447700', '4477000']) add(p, 'MOB', 'mobile')
  for (let k = 0; seen.size < PREFIXES; k++) add(String(20 + (k % 79)) + String(k).padStart(6, '0').slice(0, 1 + (k % 6)), `INT${k % 50}`, 'international')
  return lines.join('\n') + '\n'
}

async function upload(api: ApiServer, path: string): Promise<{ seconds: number; load: string; peakMB: number; body: any }> {
  const load = loadavg().map((l) => l.toFixed(2)).join(' ')
  let peak = 0
  const sampler = setInterval(async () => (peak = Math.max(peak, (await rssOf(api.child.pid)) ?? 0)), 200)
  const start = performance.now()
  try {
    const body = await new Promise<any>((resolve, reject) => {
      const req = request(`${api.origin}${API}/usageFiles/`, { method: 'POST', headers: { authorization: `Bearer ${api.key}`, 'content-type': 'text/csv', 'content-length': statSync(path).size } })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text)) : reject(new Error(`upload answered ${res.statusCode}: ${text.slice(0, 500)}`))))
      })
      req.on('error', reject)
      createReadStream(path).pipe(req)
    })
    return { seconds: (performance.now() - start) / 1000, load, peakMB: peak, body }
  } finally {
    clearInterval(sampler)
  }
}

const db = await openBenchDatabase(args.db, args.keep)
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 0 })
  await writer.exec(`update customers set "defaultMobileTariff" = 'UK Mobile', "defaultNationalTariff" = 'UK Mobile'`)
  if (db.kind === 'postgres') for (const table of ['customers', 'numbers']) await writer.exec(`vacuum (analyze) ${table}`)
  await writer.close()
  const api = await startApiServer(db)
  const headers = { authorization: `Bearer ${db.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown, type = 'application/json') => {
    const res = await fetch(`${api.origin}${API}${path}`, { method: 'POST', headers: { ...headers, 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as any
  }
  const tariff = await post('/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60, baseCostMin: 0.05 })
  for (const timeBand of ['day', 'evening', 'weekend']) await post(`/tariffs/${tariff.id}/tariffDetails`, { chargeBand: 'MOB', timeBand, cost: '0.10', costConnection: '0.02' })
  const table = await post('/destinationTables', { name: 'default' })
  const t0 = performance.now()
  const loaded = await post(`/destinationTables/${table.id}/destinations`, prefixCsv(), 'text/csv')
  log(`destination table: ${loaded.imported.toLocaleString('en-GB')} prefixes imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const sequence = [true, false, true, false, true, false, true].slice(0, 2 * args.runs + 1)
  const seconds: { given: boolean; seconds: number; load: string; peakMB: number }[] = []
  for (const [k, given] of sequence.entries()) {
    const file = join(dir, `f${k}.csv`)
    await writeFile(file, k + 1, given)
    const u = await upload(api, file)
    if (u.body.rated !== rows) throw new Error(`expected every row rated: ${JSON.stringify(u.body)}`)
    rmSync(file)
    seconds.push({ given, seconds: u.seconds, load: u.load, peakMB: u.peakMB })
    log(`${given ? 'given    ' : 'looked up'}: ${rows.toLocaleString('en-GB')} rows in ${u.seconds.toFixed(2)} s (${Math.round(rows / u.seconds).toLocaleString('en-GB')}/s), peak RSS ${u.peakMB.toFixed(0)} MB, load ${u.load}`)
  }
  await api.stop()
  const ratios = seconds.flatMap((s, i) => (s.given ? [] : [(seconds[i - 1].seconds + seconds[i + 1].seconds) / 2 / s.seconds]))
  const ratio = median(ratios)
  const lookedUp = median(seconds.filter((s) => !s.given).map((s) => s.seconds))
  const given = median(seconds.filter((s) => s.given).map((s) => s.seconds))
  report.add({
    name: `import with chargeBand and callClass looked up in a ${PREFIXES.toLocaleString('en-GB')}-prefix destination table, against them given (${rows.toLocaleString('en-GB')} rows, same run, each against the given imports either side)`,
    target: '>= 0.9 x given',
    measured: rows / lookedUp,
    unit: 'rows/s',
    baseline: rows / given,
    ratio,
    pass: ratio >= 0.9,
    note: `ratios ${ratios.map((r) => r.toFixed(3)).join(', ')}; ${seconds.map((s) => `${s.given ? 'given' : 'lookup'} ${s.seconds.toFixed(2)} s (load ${s.load})`).join('; ')}`,
  })
  report.finish({ customers, rows, prefixes: PREFIXES })
} finally {
  rmSync(dir, { recursive: true, force: true })
  await db.dispose()
}
