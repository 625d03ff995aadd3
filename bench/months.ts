import { readFileSync } from 'node:fs'
import pg from 'pg'
import { addMonthsAhead } from '../adapters/persistence/months-ahead.js'
import { FixedClock } from '../adapters/persistence/system-clock.js'
import { nextMonth } from '../adapters/persistence/dialect/partitions.js'
import { openPlatform, type Platform } from '../apps/platform/platform.js'
import { billCalls } from '../core/billing/bill-calls.js'
import { markRunCalls } from '../core/billing/run-call-mark.js'
import type { DateOnly } from '../core/dates/date-only.js'
import { API } from './support/api-server.js'
import { parseArgs, scaled } from './support/args.js'
import { openBulkWriter } from './support/bulk-insert.js'
import { insertRatedCalls } from './support/rated-calls.js'
import { openBenchDatabase, POSTGRES_URL } from './support/database.js'
import { cpuSecondsOf } from './support/database-cpu.js'
import { countPlans, planCounts, type PlanCounts } from './support/plan-counts.js'
import { numberOf, seedCustomers } from './support/fixtures.js'
import { log, Report } from './support/report.js'
import { percentile } from './support/stats.js'

/**
 * What month partitions cost over many months (Postgres, migration 0058; docs/scaling.md): calls
 * (100 a customer, 3 numbers each) spread over `--months` months ending January 2026, each month
 * with its partition of calls and of transactions, and every month but the last billed by a run
 * of its own (a `Call Charges` row a number a month). The same rows are then copied into plain
 * tables with the same columns and indexes (a schema beside it, `CREATE TABLE … (LIKE …
 * INCLUDING ALL)`), and on each, in turn: the last month's run (its calls billed, 500 customers a
 * batch, database CPU), the next run with nothing new, GET /calls of one customer (all its
 * months, with each call's derived `transactionID`), a usage import of calls over every month,
 * and `ANALYZE` of calls and transactions. Beside each, how often Postgres planned a statement
 * naming calls or transactions (support/plan-counts.ts).
 *
 *   node --import tsx bench/months.ts --db postgres [--scale 0.2] [--months 24] [--plain-first]
 */
const args = parseArgs()
if (args.db !== 'postgres') throw new Error('months: Postgres only (SQLite keeps plain tables)')
const monthsArg = process.argv.indexOf('--months')
const MONTHS = monthsArg > 0 ? Number(process.argv[monthsArg + 1]) : 24
const report = new Report('months', args)
countPlans(['calls', 'transactions'])
const calls = scaled(1_000_000, args.scale, 10_000)
const customers = Math.ceil(calls / 100)
const months: string[] = []
for (let m = monthsBefore('2026-01', MONTHS - 1), i = 0; i < MONTHS; i++, m = nextMonth(m)) months.push(m)
const db = await openBenchDatabase('postgres', args.keep)
const plain = `${db.schema}_plain`
const loads: string[] = []
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
try {
  const setup = await openPlatform({ ...db.config, skipMigrations: true })
  await addMonthsAhead(setup.database, `${months[0]}-01`, MONTHS - 1)
  await setup.close()
  const writer = openBulkWriter(db)
  await seedCustomers(writer, { customers, numbersPerCustomer: 3, featuresPerCustomer: 0 })
  await insertRatedCalls(writer, {
    calls,
    customers,
    calling: (customer, slot) => numberOf(customer, slot),
    startTime: (n) => new Date(Date.parse(`${months[Math.floor(n / customers) % MONTHS]}-01T00:00:00.000Z`) + (n % 2_419_200) * 1000).toISOString(),
  })
  await writer.close()
  log(`${calls.toLocaleString('en-GB')} calls of ${customers.toLocaleString('en-GB')} customers over ${MONTHS} months (${months[0]} to ${months.at(-1)})`)
  for (const month of months.slice(0, -1)) await billMonth(db.schema!, month, 'bench_months_setup')
  await copyToPlain(db.schema!, plain)
  const on = [
    { name: 'partitioned', schema: db.schema! },
    { name: 'plain', schema: plain },
  ]
  // Which goes first, to see what the order does (a cache warmed by the first).
  if (process.argv.includes('--plain-first')) on.reverse()
  for (const { name, schema } of on) {
    loads.push(load())
    const run = await billMonth(schema, months.at(-1)!, `bench_months_${name}`)
    const again = await billMonth(schema, months.at(-1)!, `bench_months_${name}`)
    report.add({ name: `${name}: the last month's run, database CPU a call billed`, target: 'info (docs/scaling.md)', measured: (run.cpu / (calls / MONTHS)) * 1e6, unit: 'µs', pass: null, note: `${run.ms.toFixed(0)} ms wall; ${run.charges} Call Charges rows; load ${loads.at(-1)}; ${plannings(run.plans)}` })
    report.add({ name: `${name}: the next run, nothing new, database CPU`, target: 'info', measured: again.cpu * 1000, unit: 'ms', pass: null, note: `${again.ms.toFixed(0)} ms wall; ${plannings(again.plans)}` })
  }
  const platforms = await Promise.all(on.map(({ name, schema }) => openPlatform({ databaseUrl: `${POSTGRES_URL}?application_name=bench_months_${name}`, schema, skipMigrations: true })))
  try {
    const lists = on.map(() => [] as number[])
    const customer = String(Math.ceil(customers / 2))
    for (let s = 0; s < 210; s++) {
      for (const [k, p] of platforms.entries()) {
        const t0 = performance.now()
        await get(p, `/customers/${customer}/calls/?limit=1000`)
        if (s >= 10) lists[k].push(performance.now() - t0)
      }
    }
    loads.push(load())
    for (const [k, { name }] of on.entries()) {
      const plans = await planCounts(`bench_months_${name}`)
      report.add({ name: `${name}: GET /calls of one customer (${calls / customers} calls over ${MONTHS} months), p50`, target: 'info', measured: percentile(lists[k], 50), unit: 'ms', pass: null, note: `p90 ${percentile(lists[k], 90).toFixed(1)} ms over 200; load ${loads.at(-1)}; ${plannings(plans)}` })
    }
    for (const [k, { name, schema }] of on.entries()) {
      const ms = await timed(() => get(platforms[k], '/usageFiles?name=months.csv', usageFile(5_000, name), 'POST'))
      const plans = await planCounts(`bench_months_${name}`)
      const analyse = await timed(() => psql(schema, ['analyze calls', 'analyze transactions']))
      report.add({ name: `${name}: a usage import of 5,000 calls over ${MONTHS} months`, target: 'info', measured: ms, unit: 'ms', pass: null, note: `load ${load()}; ${plannings(plans)}` })
      report.add({ name: `${name}: ANALYZE calls and transactions`, target: 'info', measured: analyse, unit: 'ms', pass: null, note: `load ${load()}` })
    }
  } finally {
    await Promise.all(platforms.map((p) => p.close()))
  }
  report.finish({ calls, customers, months: MONTHS })
} finally {
  if (!args.keep) await psql(null, [`drop schema if exists "${plain}" cascade`])
  await db.dispose()
}

function monthsBefore(month: string, count: number): string {
  const [y, m] = month.split('-').map(Number)
  const index = y * 12 + (m - 1) - count
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** Plannings of statements over calls or transactions: unnamed + custom + generic plans made (and executions of those). */
function plannings(p: PlanCounts): string {
  return `planned ${p.unnamed + p.custom + p.genericPlans} times (${p.unnamed} unnamed, ${p.custom} custom, ${p.genericPlans} generic plans run ${p.generic} times)`
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now()
  await work()
  return performance.now() - t0
}

async function get(platform: Platform, path: string, body?: string, method = 'GET'): Promise<string> {
  const key = db.key
  const res = await platform.app.request(`${API}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
  return text
}

/** A usage file of `rows` calls of the seeded numbers, over every month (new fingerprints each time: `tag`). */
function usageFile(rows: number, tag: string): string {
  const out = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
  for (let n = 0; n < rows; n++) {
    const customer = (n % customers) + 1
    const start = new Date(Date.parse(`${months[n % MONTHS]}-01T00:00:00.000Z`) + ((n * 7919) % 2_419_200) * 1000).toISOString().replace('.000', '')
    out.push(`${numberOf(customer, n % 3)},07700 9${String(n % 100000).padStart(5, '0')},${start},${30 + (n % 600)},NAT,national,BT,${tag}-${n}`)
  }
  return out.join('\n') + '\n'
}

async function psql(schema: string | null, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, options: schema ? `-c search_path=${schema}` : undefined })
  await client.connect()
  try {
    for (const s of statements) await client.query(s)
  } finally {
    await client.end()
  }
}

/** Every table of `from` (partitioned ones as one plain table) copied into schema `to`, with its indexes and its IDs' sequences. */
async function copyToPlain(from: string, to: string): Promise<void> {
  const t0 = performance.now()
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(`create schema "${to}"`)
    const { rows } = await client.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition`, [from])
    for (const { name } of rows) {
      await client.query(`create table "${to}"."${name}" (like "${from}"."${name}" including all)`)
      await client.query(`insert into "${to}"."${name}" overriding system value select * from "${from}"."${name}"`)
      const identity = await client.query<{ column: string }>(`select column_name as column from information_schema.columns where table_schema = $1 and table_name = $2 and is_identity = 'YES'`, [to, name])
      for (const { column } of identity.rows) {
        await client.query(`select setval(pg_get_serial_sequence('"${to}"."${name}"', '${column}'), coalesce((select max("${column}") from "${to}"."${name}"), 0) + 1, false)`)
      }
    }
    await client.query(`set search_path = "${to}"`)
    await client.query('vacuum analyze')
    log(`copied ${rows.length} tables into plain tables (${to}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  } finally {
    await client.end()
  }
}

/**
 * A run for `month` over every customer, as row-sizes.ts bills (500 customers a batch, core's
 * billCalls through the platform's store), its backends' CPU summed from /proc.
 */
async function billMonth(schema: string, month: string, app: string): Promise<{ ms: number; cpu: number; charges: number; plans: PlanCounts }> {
  const cutoff = lastDay(month)
  const stamp = `${nextMonth(month)}-02T10:00:00.000Z`
  const platform = await openPlatform({ databaseUrl: `${POSTGRES_URL}?application_name=${app}`, schema, skipMigrations: true, clock: new FixedClock(stamp as never) })
  const probe = new pg.Client({ connectionString: POSTGRES_URL })
  await probe.connect()
  const cpu = new Map<number, number>()
  const sample = async () => {
    const { rows } = await probe.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [app])
    for (const { pid } of rows) cpu.set(pid, cpuSecondsOf(pid))
  }
  try {
    const ctx = platform.context
    const run = await markRunCalls(ctx, await ctx.store.repository('billingRuns').insert({ name: `bench ${month}`, cutoffDate: cutoff as never, status: 'Running', createdStamp: stamp as never, updatedStamp: stamp as never }))
    await sample()
    const before = new Map(cpu)
    const t0 = performance.now()
    for (let after = '0'; ; ) {
      const page = await ctx.store.runSource.customersAfter(after, 500)
      if (page.length === 0) break
      await ctx.store.transaction((store) => billCalls(ctx, store, page, cutoff as DateOnly, new Map(), run))
      await sample()
      after = page.at(-1)!.id
    }
    const ms = performance.now() - t0
    const plans = await planCounts(app)
    await sample()
    const used = [...cpu].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0)
    const charges = (await ctx.store.repository('transactions').list({ where: [{ op: 'eq', column: 'billingRunID', value: run.id }], limit: 1_000_000, storedOnly: true })).length
    await ctx.store.repository('billingRuns').update(run.id, { status: 'Complete' })
    return { ms, cpu: used, charges, plans }
  } finally {
    await probe.end()
    await platform.close()
  }
}

function lastDay(month: string): string {
  return new Date(Date.parse(`${nextMonth(month)}-01T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10)
}
