import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { createHash } from 'node:crypto'
import pg from 'pg'
import { parseArgs, scaled } from './support/args.js'
import { API, startApiServer, type ApiServer } from './support/api-server.js'
import { openBulkWriter, type BulkColumn } from './support/bulk-insert.js'
import { openBenchDatabase, POSTGRES_URL, type BenchDatabase } from './support/database.js'
import { numberOf, seedCustomers } from './support/fixtures.js'
import { peakRssOf, rssOf } from './support/machine.js'
import { log, Report } from './support/report.js'
import { median } from './support/stats.js'
import { createRuleTariffs, setRatingRules } from './support/rating-rules.js'
import { batchedInsertSeconds, removeFloorCalls, setCallsAside } from './support/batch-floor.js'
import { IMPORT_BATCH } from '../core/rating/import-usage.js'
import { IMPORT_PAGE_CACHE_MIB } from '../adapters/persistence/repositories/kysely-rating-data.js'
// The floors insert exactly the columns an import writes.
import { CALL_COLUMNS } from '../adapters/persistence/repositories/call-inserts.js'

/**
 * Rating: at least 50,000 call records a second imported and rated (POST /usageFiles, streamed),
 * the server's memory flat for a 5,000,000-row file (RSS does not grow over the import).
 */
const args = parseArgs()
const report = new Report('rating', args)
// --numbers N: seed N numbers (3 a customer) whatever the scale, e.g. 3,000,000 to show memory
// does not follow the number of numbers.
const numbersArg = process.argv.find((a, i) => process.argv[i - 1] === '--numbers' || a.startsWith('--numbers='))
const customers = numbersArg ? Math.ceil(Number(numbersArg.replace('--numbers=', '')) / 3) : scaled(100_000, args.scale, 2000)
const rows = scaled(5_000_000, args.scale, 50_000)
const small = Math.min(50_000, rows)
const dir = mkdtempSync(join(tmpdir(), 'bench-rating-'))
const HEADER = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier\n'

/** One usage record a line; every record distinct (its fingerprint), all on seeded numbers. */
function callLine(n: number, seed: number): string {
  const i = 1 + ((n * 7919 + seed) % customers)
  const second = (n * 13) % 86_400
  const day = 1 + (n % 28)
  const time = `2026-01-${String(day).padStart(2, '0')}T${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}Z`
  return `${numberOf(i, n % 3)},0770${String(n + seed * 10_000_000).padStart(8, '0')},${time},${1 + (n % 600)},MOB,mobile,Gamma\n`
}

async function writeFile(path: string, count: number, seed: number): Promise<void> {
  const out = createWriteStream(path)
  out.write(HEADER)
  let chunk = ''
  for (let n = 0; n < count; n++) {
    chunk += callLine(n, seed)
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain')
      chunk = ''
    }
  }
  out.end(chunk)
  await once(out, 'finish')
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); 0 when unreadable. */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0
  }
}

/**
 * On Postgres the insert's work is the database backend's, not the server's: the server's
 * connections carry an application_name, and their backends' CPU (from /proc, same machine) is
 * summed over the upload. Samples keep each backend's last reading, so one that closes midway counts.
 */
function databaseCpu(db: BenchDatabase): { readonly url: string; sample(): Promise<void>; seconds(): number; close(): Promise<void> } | null {
  if (db.kind !== 'postgres') return null
  const name = `bench_rating_${process.pid}`
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  const connected = client.connect()
  const first = new Map<number, number>()
  const last = new Map<number, number>()
  return {
    url: `${db.childUrl}&application_name=${name}`,
    async sample() {
      await connected
      const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name])
      for (const { pid } of rows) {
        const cpu = cpuSecondsOf(pid)
        if (!first.has(pid)) first.set(pid, cpu)
        last.set(pid, cpu)
      }
    },
    seconds: () => [...last].reduce((sum, [pid, cpu]) => sum + cpu - first.get(pid)!, 0),
    async close() {
      await connected
      await client.end()
    },
  }
}

/**
 * Streams a file to POST /usageFiles, sampling the server's RSS; returns the seconds taken, the
 * peak, and the server's CPU seconds: on a shared machine wall time follows the load, CPU time per
 * row much less.
 */
async function upload(api: ApiServer, path: string): Promise<{ seconds: number; peakMB: number; walPeak: number; rss: number[]; cpuSeconds: number; dbCpuSeconds: number | null; load: string; body: any }> {
  const load = loadavg().map((l) => l.toFixed(2)).join(' ')
  await dbCpu?.sample()
  const dbCpuBefore = dbCpu?.seconds() ?? 0
  const cpuBefore = cpuSecondsOf(api.child.pid)
  let peak = 0
  let walPeak = 0
  const rss: number[] = []
  const sampler = setInterval(async () => {
    // The WAL grows while the import's one transaction spills pages, and is emptied when the server stops.
    if (db.file) walPeak = Math.max(walPeak, statSync(`${db.file}-wal`, { throwIfNoEntry: false })?.size ?? 0)
    const mb = await rssOf(api.child.pid)
    if (mb !== null) rss.push(mb)
    peak = Math.max(peak, mb ?? 0)
    await dbCpu?.sample()
  }, 200)
  const start = performance.now()
  try {
    const body = await new Promise<any>((resolve, reject) => {
      const req = request(`${api.origin}${API}/usageFiles/?name=bench.csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'text/csv', 'content-length': statSync(path).size },
      })
      req.on('response', (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text)) : reject(new Error(`upload answered ${res.statusCode}: ${text.slice(0, 500)}`))))
      })
      req.on('error', reject)
      createReadStream(path).pipe(req)
    })
    const seconds = (performance.now() - start) / 1000
    const cpuSeconds = cpuSecondsOf(api.child.pid) - cpuBefore
    await dbCpu?.sample()
    const dbCpuSeconds = dbCpu ? dbCpu.seconds() - dbCpuBefore : null
    return { seconds, peakMB: Math.max(peak, (await peakRssOf(api.child.pid)) ?? 0), walPeak, rss, cpuSeconds, dbCpuSeconds, load: `${load} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}`, body }
  } finally {
    clearInterval(sampler)
  }
}

const perRow = (u: { cpuSeconds: number; dbCpuSeconds: number | null; seconds: number; load: string; body: any }) =>
  `server CPU ${((u.cpuSeconds / u.body.rows) * 1e6).toFixed(1)} µs/row (${((100 * u.cpuSeconds) / u.seconds).toFixed(0)} % of one core)` +
  (u.dbCpuSeconds === null ? '' : `, database CPU ${((u.dbCpuSeconds / u.body.rows) * 1e6).toFixed(1)} µs/row (${((100 * u.dbCpuSeconds) / u.seconds).toFixed(0)} %)`) +
  `, load ${u.load}`

// --profile: the servers write CPU profiles (summarise one with bench/support/profile-summary.ts).
if (process.argv.includes('--profile')) {
  const profiles = mkdtempSync(join(tmpdir(), 'bench-rating-profiles-'))
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --cpu-prof --cpu-prof-dir=${profiles}`
  log(`CPU profiles go to ${profiles}`)
}

const db = await openBenchDatabase(args.db, args.keep)
const dbCpu = databaseCpu(db)
// The server's connections are named so that their backends' CPU can be found.
const serverDb: BenchDatabase = dbCpu ? { ...db, childUrl: dbCpu.url } : db
try {
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 0 })
  await writer.exec(`update customers set "defaultMobileTariff" = 'UK Mobile'`)
  // A tenth of the numbers hold a discount plan covering the file's mobile calls (contract 11):
  // their calls' allowances are allocated, and the calls priced again, after the import.
  await writer.exec(`update numbers set "discountPlan1" = 'Mobile Bundle 500' where id % 10 = 0`)
  // The updates leave a dead row version behind each customer and each tenth number, and every
  // row is new: the import's lookups would set the rows' hint bits and step over the dead
  // versions, which a table in use has had vacuumed away (autovacuum may or may not get there
  // before the import starts). Postgres vacuums them here, untimed.
  if (db.kind === 'postgres') for (const table of ['customers', 'numbers']) await writer.exec(`vacuum (analyze) ${table}`)
  await writer.close()
  const smallFile = join(dir, 'small.csv')
  const bigFile = join(dir, 'big.csv')
  await writeFile(smallFile, small, 1)
  await writeFile(bigFile, rows, 2)
  log(`usage files written: ${small.toLocaleString('en-GB')} and ${rows.toLocaleString('en-GB')} rows (${(statSync(bigFile).size / 2 ** 20).toFixed(0)} MB)`)

  // Memory is compared between fresh servers, one for each file.
  let api = await startApiServer(serverDb)
  const auth = { authorization: `Bearer ${db.key}`, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api.origin}${API}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as { id: string }
  }
  const startRss = (await rssOf(api.child.pid)) ?? 0
  log(`server RSS after start: ${startRss.toFixed(0)} MB`)
  const tariff = await post('/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60, baseCostMin: 0.05 })
  await post(`/tariffs/${tariff.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'day', cost: '0.10', costConnection: '0.02' })
  await post(`/tariffs/${tariff.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'evening', cost: '0.05', costConnection: '0.02' })
  await post(`/tariffs/${tariff.id}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'weekend', cost: '0.03', costConnection: '0.02' })
  const first = await upload(api, smallFile)
  const sample = (await (await fetch(`${api.origin}${API}/calls/?limit=1000`, { headers: auth })).json()) as { allowanceSeconds: number | null; numberID: string }[]
  const covered = sample.filter((c) => c.allowanceSeconds !== null)
  if (covered.length === 0 || covered.some((c) => Number(c.numberID) % 10 !== 0) || !covered.some((c) => c.allowanceSeconds! > 0)) throw new Error('expected the calls of a tenth of the numbers to use allowances')
  log(`allowances: ${covered.length} of the first ${sample.length} calls on numbers with a plan, all within it`)
  log(`small file: ${small.toLocaleString('en-GB')} rows in ${first.seconds.toFixed(1)} s, rated ${first.body.rated}, peak RSS ${first.peakMB.toFixed(0)} MB, ${perRow(first)}`)
  await api.stop()
  // Each run imports the big file into a fresh server and takes both floors right after it; the
  // figures judged are the medians over the runs, each ratio taken within its own run: on a
  // shared machine the same code moved by a tenth between runs, and its floors with it.
  const columnList = CALL_COLUMNS.map((c) => `"${c}"`).join(', ')
  const runs: { big: Awaited<ReturnType<typeof upload>>; batchFloorSeconds: number; floorSeconds: number; batchRatio: number; floorRatio: number }[] = []
  for (let run = 1; run <= args.runs; run++) {
    api = await startApiServer(serverDb)
    const big = await upload(api, bigFile)
    await api.stop()
    const of = args.runs > 1 ? ` (run ${run} of ${args.runs})` : ''
    log(`big file${of}: ${rows.toLocaleString('en-GB')} rows in ${big.seconds.toFixed(1)} s, rated ${big.body.rated}, peak RSS ${big.peakMB.toFixed(0)} MB, ${perRow(big)}`)
    if (big.body.imported !== rows || big.body.rated !== rows) throw new Error(`expected every row imported and rated: ${JSON.stringify(big.body)}`)
    if (db.kind === 'sqlite') log(`SQLite WAL at most ${(big.walPeak / 2 ** 20).toFixed(0)} MB during the big import (what its page cache made it write)`)

    // Both floors insert the imported rows into the calls table as the import found it: the rows
    // are set aside first (bench/support/batch-floor.ts), and each floor's rows are removed before
    // the next; none of that is timed. Inserted into a table already holding them, the same rows
    // took two to three times as long (bench/RESULTS.md, session 13). The next run's import finds
    // the table as this one did.
    await setCallsAside(db, String(big.body.id))

    // Database floor, as issue 22 means it: the imported rows inserted again in the import's
    // batches, through its statement, with no parsing, lookups or rating.
    const batchFloorSeconds = await batchedInsertSeconds(db, CALL_COLUMNS, IMPORT_BATCH, IMPORT_PAGE_CACHE_MIB)
    log(`database floor${of}: the ${rows.toLocaleString('en-GB')} imported rows inserted again in batches of ${IMPORT_BATCH} in ${batchFloorSeconds.toFixed(1)} s`)
    await removeFloorCalls(db, String(big.body.id))

    // Database floor: the imported rows inserted again by the database itself, unchanged, with the
    // import's conflict clause; nothing is sent, parsed or rated, so this is what the database alone
    // takes for these rows. SQLite gets the import's page cache.
    const floorWriter = openBulkWriter(db)
    if (db.kind === 'sqlite') await floorWriter.exec(`pragma cache_size = ${-IMPORT_PAGE_CACHE_MIB * 1024}`)
    const floorStart = performance.now()
    await floorWriter.exec(`insert into calls (${columnList}) select ${columnList} from floor_rows where true order by id on conflict ("fingerprint") do nothing`)
    const floorSeconds = (performance.now() - floorStart) / 1000
    await floorWriter.exec('drop table floor_rows')
    await floorWriter.close()
    log(`database floor${of}: the ${rows.toLocaleString('en-GB')} imported rows inserted again by INSERT … SELECT in ${floorSeconds.toFixed(1)} s`)
    const batchRatio = batchFloorSeconds / big.seconds
    const floorRatio = floorSeconds / big.seconds
    log(`ratios${of}: ${batchRatio.toFixed(3)} of the same-batches floor, ${floorRatio.toFixed(3)} of INSERT … SELECT`)
    if (run < args.runs) await removeFloorCalls(db, String(big.body.id))
    runs.push({ big, batchFloorSeconds, floorSeconds, batchRatio, floorRatio })
  }
  // The middle run by import time (the faster middle one of an even count) stands for the memory and CPU figures.
  const big = [...runs].sort((a, b) => a.big.seconds - b.big.seconds)[Math.floor((runs.length - 1) / 2)].big
  const batchRatio = median(runs.map((r) => r.batchRatio))
  const floorRatio = median(runs.map((r) => r.floorRatio))
  const batchFloorSeconds = median(runs.map((r) => r.batchFloorSeconds))
  const floorSeconds = median(runs.map((r) => r.floorSeconds))
  const bigPeak = Math.max(...runs.map((r) => r.big.peakMB))
  const runsNote = args.runs > 1 ? `median of ${args.runs} runs, each ratio within its run: ${runs.map((r) => `${r.big.seconds.toFixed(1)} s`).join(', ')}` : undefined

  // Baseline: the same number of rows bulk-inserted into calls, with SHA-256 fingerprints like the
  // import's (their unique index is much of the insert's cost), but no parsing or rating.
  const t = (name: string): BulkColumn => ({ name, type: 'text' })
  const b = (name: string): BulkColumn => ({ name, type: 'bigint' })
  const n = (name: string): BulkColumn => ({ name, type: 'integer' })
  const base = openBulkWriter(db)
  const start = performance.now()
  await base.insert('calls', [t('callingNumber'), t('dialledNumber'), t('startTime'), { name: 'durationSeconds', type: 'double precision' }, t('chargeBand'), t('callType'), t('carrier'), b('cost'), n('rated'), n('deleted'), t('fingerprint'), t('createdStamp'), t('updatedStamp')], (function* () {
    for (let i = 0; i < rows; i++) yield ['01632960001', '07700900000', '2026-01-14T10:00:00.000Z', 60, 'MOB', 'mobile', 'Gamma', 1200, 1, 0, createHash('sha256').update(`baseline-${i}`).digest('hex'), '2026-01-14T10:00:00.000Z', '2026-01-14T10:00:00.000Z']
  })())
  const baseSeconds = (performance.now() - start) / 1000
  await base.close()
  const rate = rows / median(runs.map((r) => r.big.seconds))
  const baseRate = rows / baseSeconds
  log(`baseline: ${rows.toLocaleString('en-GB')} rows bulk-inserted in ${baseSeconds.toFixed(1)} s`)
  report.add({ name: `call records imported and rated (${rows.toLocaleString('en-GB')}-row file, ${(customers * 3).toLocaleString('en-GB')} numbers, a tenth with allowances)`, target: '>= 50,000/s', measured: rate, unit: 'rows/s', baseline: baseRate, ratio: rate / baseRate, pass: rate >= 50_000 })
  report.add({
    name: `import throughput against the database floor of the same run (the same rows inserted in the import's batches of ${IMPORT_BATCH}, no rating)`,
    target: '>= 0.8 x floor',
    measured: rate,
    unit: 'rows/s',
    baseline: rows / batchFloorSeconds,
    ratio: batchRatio,
    pass: batchRatio >= 0.8,
    ...(runsNote ? { note: runsNote } : {}),
  })
  report.add({
    name: 'import throughput against the same rows inserted by one INSERT … SELECT (the database alone, no statement per batch)',
    target: '>= 0.8 x floor',
    measured: rate,
    unit: 'rows/s',
    baseline: rows / floorSeconds,
    ratio: floorRatio,
    pass: floorRatio >= 0.8,
    ...(runsNote ? { note: runsNote } : {}),
  })
  report.add({
    name: 'database floor: the imported rows inserted again by the database itself (INSERT … SELECT, the same rows into the table as the import found it)',
    target: 'info (>= 50,000/s for the target to be reachable)',
    measured: rows / floorSeconds,
    unit: 'rows/s',
    pass: null,
  })
  report.add({
    name: 'server CPU per row (SQLite: parse, rate and insert; Postgres: the insert is the database process\'s)',
    target: 'info (50,000 rows/s on one core is 20 µs/row)',
    measured: (big.cpuSeconds / rows) * 1e6,
    unit: 'µs/row',
    pass: null,
    note: `load ${big.load}`,
  })
  if (big.dbCpuSeconds !== null) {
    report.add({
      name: "database backends' CPU per row (Postgres: the insert)",
      target: 'info (50,000 rows/s on one core is 20 µs/row)',
      measured: (big.dbCpuSeconds / rows) * 1e6,
      unit: 'µs/row',
      pass: null,
    })
  }
  // Flat: RSS stops growing once the import's fixed costs are paid (the page cache it widens,
  // the batch buffers); the median over the last quarter of the import against the median
  // over its second quarter (RSS sampled five times a second).
  const quarter = Math.floor(big.rss.length / 4)
  const flatBy = median(big.rss.slice(-quarter)) - median(big.rss.slice(quarter, 2 * quarter))
  report.add({
    name: `server RSS over the ${rows.toLocaleString('en-GB')}-row import: median of its last quarter minus median of its second`,
    target: '<= 20 MB (flat)',
    measured: flatBy,
    unit: 'MB',
    pass: quarter > 0 && flatBy <= 20,
    note: `${big.rss.length} samples; peak ${big.peakMB.toFixed(0)} MB`,
  })
  report.add({
    name: `server peak RSS during any import (${(customers * 3).toLocaleString('en-GB')} numbers): the larger of the two files' peaks`,
    target: '< 250 MB',
    measured: Math.max(bigPeak, first.peakMB),
    unit: 'MB',
    pass: Math.max(bigPeak, first.peakMB) < 250,
    note: `small file ${first.peakMB.toFixed(0)} MB, big file ${bigPeak.toFixed(0)} MB${runs.length > 1 ? ' (the highest of its runs)' : ''}`,
  })
  report.add({
    name: 'server peak RSS during the import, against a small file',
    target: `informative (what a long import adds: the ${IMPORT_PAGE_CACHE_MIB} MiB import page cache fills within the small file too)`,
    measured: big.peakMB,
    unit: 'MB',
    baseline: first.peakMB,
    pass: null,
    note: `+${(big.peakMB - first.peakMB).toFixed(0)} MB`,
  })
  // Contract 17.7 (issue 57): the same file with a tenth of the numbers carrying a feature that
  // names its own mobile tariff and every tariff a child of a parent, against it without them, in
  // this run: without, with, without again (each into a fresh server, each a new file), the
  // "with" import compared with the mean of the two around it, so the growing table favours
  // neither side.
  const rulesRows = small
  const rulesSeconds: number[] = []
  for (const [k, withRules] of [false, true, false].entries()) {
    const file = join(dir, `rules-${k}.csv`)
    await writeFile(file, rulesRows, 3 + k)
    await setRatingRules(db, withRules)
    if (k === 0) {
      api = await startApiServer(serverDb)
      await createRuleTariffs(post)
      await api.stop()
    }
    api = await startApiServer(serverDb)
    const u = await upload(api, file)
    await api.stop()
    if (u.body.rated !== rulesRows) throw new Error(`expected every row rated: ${JSON.stringify(u.body)}`)
    rulesSeconds.push(u.seconds)
    log(`rules ${withRules ? 'with' : 'without'} features and parents: ${rulesRows.toLocaleString('en-GB')} rows in ${u.seconds.toFixed(2)} s`)
  }
  const withoutSeconds = (rulesSeconds[0] + rulesSeconds[2]) / 2
  const rulesRatio = withoutSeconds / rulesSeconds[1]
  report.add({
    name: `import with a tenth of the numbers carrying a feature tariff and every tariff a child of a parent, against without (${rulesRows.toLocaleString('en-GB')} rows, same run)`,
    target: '>= 0.9 x without',
    measured: rulesRows / rulesSeconds[1],
    unit: 'rows/s',
    baseline: rulesRows / withoutSeconds,
    ratio: rulesRatio,
    pass: rulesRatio >= 0.9,
    note: `without ${rulesSeconds[0].toFixed(2)} s and ${rulesSeconds[2].toFixed(2)} s, with ${rulesSeconds[1].toFixed(2)} s`,
  })
  report.finish({ customers, rows })
} finally {
  rmSync(dir, { recursive: true, force: true })
  await dbCpu?.close()
  await db.dispose()
}
