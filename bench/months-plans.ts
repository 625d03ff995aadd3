import pg from 'pg'
import { statementsOf } from '../tests/support/sent-statements.js'
import { openPlatform } from '../apps/platform/platform.js'
import { openBenchDatabase, POSTGRES_URL } from './support/database.js'
import { API } from './support/api-server.js'
import { numberOf } from './support/fixtures.js'
import { FixedClock } from '../adapters/persistence/system-clock.js'
import { billCalls } from '../core/billing/bill-calls.js'
import { markRunCalls } from '../core/billing/run-call-mark.js'
import type { DateOnly } from '../core/dates/date-only.js'

/**
 * Where a partitioned statement's time goes, prepared as the platform prepares it: the
 * statements over calls or transactions that a customer's calls list, a usage import and a
 * billing run's step (500 customers, for January 2026 again: its reads of calls) send,
 * caught at the driver, each prepared on a connection of its own and explained at each of its
 * first `EXECUTIONS` executions (`EXPLAIN (ANALYZE, SUMMARY) EXECUTE`): planning and execution
 * time, and whether the plan was the statement's own (custom) or its generic one; in Postgres's
 * default `plan_cache_mode` and with `force_generic_plan`. On a schema a `bench/months.ts
 * --keep` run left, and its plain copy (`<schema>_plain`).
 *
 *   node --import tsx bench/months-plans.ts <schema>
 */
const EXECUTIONS = 10
const schema = process.argv[2]
const db = await openBenchDatabase('postgres', true, schema)
const platform = await openPlatform({ databaseUrl: POSTGRES_URL, schema, skipMigrations: true })
const request = async (path: string, body?: string) => {
  const res = await platform.app.request(`${API}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${db.key}`, 'content-type': 'text/csv' }, body })
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return res.text()
}
const lines = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,externalID']
for (let n = 0; n < 200; n++) lines.push(`${numberOf((n % 2000) + 1, n % 3)},07700 9${String(n).padStart(5, '0')},2025-0${(n % 9) + 1}-1${n % 10}T10:00:00Z,60,NAT,national,BT,plans-${Date.now()}-${n}`)
const caught = new Map<string, Map<string, unknown[]>>()
caught.set('list', await statementsOf(() => request('/customers/1000/calls/?limit=1000')))
caught.set('import', await statementsOf(() => request('/usageFiles?name=plans.csv', lines.join('\n') + '\n')))
// An import's read of its customers' allowance calls in a month (reallocate-allowances.ts), 500 customers.
const customerIDs = Array.from({ length: 500 }, (_, i) => String(i + 1))
caught.set('allowances', await statementsOf(() => platform.context.store.rating.allowanceCalls(customerIDs, '2025-06-01T00:00:00.000Z' as never, '2025-07-01T00:00:00.000Z' as never)))
await platform.close()
const clock = new FixedClock('2026-02-02T10:00:00.000Z' as never)
const runner = await openPlatform({ databaseUrl: POSTGRES_URL, schema, skipMigrations: true, clock })
caught.set(
  'run',
  await statementsOf(async () => {
    const ctx = runner.context
    const stamp = '2026-02-02T10:00:00.000Z' as never
    const run = await markRunCalls(ctx, await ctx.store.repository('billingRuns').insert({ name: 'plans', cutoffDate: '2026-01-31' as never, status: 'Running', createdStamp: stamp, updatedStamp: stamp }))
    const page = await ctx.store.runSource.customersAfter('0', 500)
    await ctx.store.transaction((store) => billCalls(ctx, store, page, '2026-01-31' as DateOnly, new Map(), run))
    await ctx.store.repository('billingRuns').update(run.id, { status: 'Complete' })
  }),
)
await runner.close()

const literal = (v: unknown) => (v === null || v === undefined ? 'null' : typeof v === 'number' || typeof v === 'bigint' ? String(v) : pg.Client.prototype.escapeLiteral(String(v)))
// The run's read with its run-wide bounds (stamps) written as literals, the others renumbered.
for (const [text, params] of [...caught.get('run')!, ...caught.get('allowances')!]) {
  if (!process.env.INLINE_STAMPS) break
  const stamp = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)
  const kept: unknown[] = []
  const renumbered = text.replace(/\$(\d+)/g, (_, n) => {
    const v = params[Number(n) - 1]
    if (stamp(v)) return literal(v)
    kept.push(v)
    return `$${kept.length}`
  })
  if (kept.length < params.length) caught.set(`${caught.get('run')!.has(text) ? 'run' : 'allowances'}, stamps inlined`, new Map([[renumbered, kept]]))
}
for (const on of [schema, `${schema}_plain`]) {
  const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${on}` })
  await client.connect()
  try {
    for (const [what, statements] of caught) {
      for (const [text, params] of statements) {
        if (!/^\s*(select|with)\b/i.test(text) || !/"(calls|transactions)"/.test(text) || /^\s*with[\s\S]*\b(insert|update|delete)\b/i.test(text)) continue
        if (params.some((p) => typeof p === 'object' && p !== null)) continue
        for (const mode of ['auto', 'force_generic_plan']) {
          await client.query(`set plan_cache_mode = ${mode}`)
          await client.query(`prepare probe as ${text}`)
          const rows: string[] = []
          for (let i = 0; i < EXECUTIONS; i++) {
            const { rows: plan } = await client.query(`explain (analyze, summary, format json) execute probe(${params.map(literal).join(', ')})`)
            const p = plan[0]['QUERY PLAN'][0]
            rows.push(`${p['Planning Time'].toFixed(2)}+${p['Execution Time'].toFixed(2)}`)
          }
          const { rows: counts } = await client.query('select generic_plans as g, custom_plans as c from pg_prepared_statements where name = $1', ['probe'])
          await client.query('deallocate probe')
          console.log(`${on.endsWith('_plain') ? 'plain' : 'partitioned'} ${what} ${mode}: ${rows.join(' ')} ms (planning+execution), ${counts[0].c} custom, ${counts[0].g} generic; ${text.replace(/\s+/g, ' ').slice(0, 90)}`)
        }
      }
    }
  } finally {
    await client.end()
  }
}
