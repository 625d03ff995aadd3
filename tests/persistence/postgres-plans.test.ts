import { sql } from 'kysely'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { statementsOf } from '../support/sent-statements.js'
import { lifeColumns, lifeValues, seedCustomersAndNumbers } from '../support/postgres-seed.js'
import { parentIndexOf, tableOf } from '../support/partition-names.js'

/**
 * Every statement a billing run and the request paths send to Postgres, explained on a seeded
 * database with fresh statistics: none reads customers, numbers, features or transactions by a
 * sequential scan. The statements are caught at the driver, with their parameters, as the
 * platform sends them. They are explained with `enable_seqscan = off`: a test database of
 * thousands of rows is one where reading a table whole is often cheapest, so the planner's
 * choice here says nothing of ten million rows; what holds at any size is whether an index can
 * serve the statement at all, and with sequential scans priced out a Seq Scan remains only
 * where none can. Lists that look for a few customers among many are checked to use their
 * partial indexes (an ID-index walk with a filter would read every customer to find none).
 */

const CUSTOMERS = 4_000
const BIG = ['customers', 'numbers', 'features', 'transactions'] as const

/** `CUSTOMERS` customers, three numbers and five features each (two on the customer), seeded by the database itself. */
async function seed(h: Harness): Promise<void> {
  const db = h.platform.database.db
  await seedCustomersAndNumbers(db, CUSTOMERS)
  await sql
    .raw(
      `insert into features (id, "customerID", "numberID", "featureType", "featureCount", "startDate", "serviceCharge", "serviceChargeInterval", ${lifeColumns})
       select g, (g + 4) / 5, case when (g - 1) % 5 < 3 then ((g + 4) / 5 - 1) * 3 + (g - 1) % 5 + 1 end, 'Line Rental', 1, '2026-01-01', 100000, 'Monthly', ${lifeValues}
       from generate_series(1, ${CUSTOMERS * 5}) g`,
    )
    .execute(db)
  for (const t of ['customers', 'numbers', 'features']) {
    await sql.raw(`select setval(pg_get_serial_sequence('"${t}"', 'id'), (select max(id) from "${t}") + 1, false)`).execute(db)
  }
  await sql.raw('analyze').execute(db)
}

/** The big tables a statement's plan reads by a sequential scan. */
async function seqScans(client: pg.Client, text: string, params: unknown[]): Promise<string[]> {
  // A month's partition of transactions is the table's (migration 0058).
  return (await planNodes(client, text, params)).filter((n) => n['Node Type'] === 'Seq Scan' && (BIG as readonly string[]).includes(tableOf(String(n['Relation Name'])))).map((n) => String(n['Relation Name']))
}

/** Every node of a statement's plan. */
async function planNodes(client: pg.Client, text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const { rows } = await client.query(`explain (format json) ${text}`, params)
  const nodes: Record<string, unknown>[] = []
  const walk = (node: Record<string, unknown>) => {
    nodes.push(node)
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
  }
  walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0].Plan)
  return nodes
}

/** Statements worth explaining: those that touch a big table (not transaction control, locks or ANALYZE). */
const explainable = (text: string) => /^\s*(select|insert|update|delete|with)\b/i.test(text) && BIG.some((t) => text.includes(`"${t}"`))

for (const target of activeTargets().filter((t) => t === 'postgres')) {
  const test = suite<{ h: Harness; client: pg.Client }>(`postgres plans: no sequential scan of the big tables [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
    await seed(ctx.h)
    ctx.client = new pg.Client({ connectionString: ctx.h.target.databaseUrl, options: `-c search_path=${ctx.h.target.schema}` })
    await ctx.client.connect()
    await ctx.client.query('set enable_seqscan = off')
  })
  test.after(async (ctx) => {
    await ctx.client.end()
    await ctx.h.close()
  })

  const check = async (client: pg.Client, statements: Map<string, unknown[]>, least: number) => {
    const bad: string[] = []
    let explained = 0
    for (const [text, params] of statements) {
      if (!explainable(text)) continue
      explained++
      const scans = await seqScans(client, text, params)
      if (scans.length) bad.push(`${scans.join(', ')}: ${text.replace(/\s+/g, ' ').replace(/\(select row_to_json.*\) as "w0"/, '<wire json>').slice(0, 400)}`)
    }
    assert.ok(explained >= least, `only ${explained} statements explained`)
    assert.equal(bad, [], `sequential scans:\n${bad.join('\n')}`)
    return explained
  }

  test('a billing run, first and again with the same cutoff', async ({ h, client }) => {
    const statements = await statementsOf(async () => {
      await bill(h, '2026-01-31')
      await bill(h, '2026-01-31')
      await bill(h, '2026-02-28')
    })
    const n = await check(client, statements, 15)
    console.log(`  [plans] ${n} statements of the billing runs explained`)
  })

  test('request paths: every GET route (lists, items, children), list filters, and writes of each big resource', async ({ h, client }) => {
    const id = String(CUSTOMERS / 2)
    const statements = await statementsOf(async () => {
      for (const route of h.platform.routes) {
        if (route.method !== 'GET' || route.absolute || route.path.includes('/docs')) continue
        const path = route.path.replace(/:[a-zA-Z]+/g, id)
        await h.request('GET', path)
        if (!route.path.includes(':')) await h.request('GET', `${path}?limit=50&idAfter=${id}`)
      }
      for (const q of ['accountNumber=ACC00002000', 'status=Suspended', 'finalBill=true', 'creditAlert=any', 'expandNumbers=true&limit=100']) await h.request('GET', `/customers?${q}`)
      for (const q of ['number=000100005999', 'numberType=Mobile']) await h.request('GET', `/numbers?${q}`)
      await h.request('GET', '/features?featureType=Line%20Rental&limit=10')
      for (const q of ['transactionType=Payment', 'approved=false&limit=10']) await h.request('GET', `/transactions?${q}`)
      const c = await h.request('POST', '/customers', { accountNumber: 'PLAN-1' })
      assert.is(c.status, 201, c.text)
      const n = await h.request('POST', `/customers/${c.body.id}/numbers`, { number: '020 7946 0999' })
      assert.is(n.status, 201, n.text)
      const f = await h.request('POST', `/customers/${c.body.id}/features`, { startDate: '2026-01-01', serviceCharge: '5.00', serviceChargeInterval: 'Monthly' })
      assert.is(f.status, 201, f.text)
      await h.request('PATCH', `/customers/${id}`, { lastname: 'Renamed' })
      await h.request('PATCH', `/features/${Number(id) * 5}`, { serviceCharge: '12.00' })
      await h.request('POST', `/customers/${id}/transactions`, { transactionType: 'Payment', amount: '-5.00', transactionDate: '2026-02-01' })
      await h.request('POST', `/customers/${c.body.id}?action=suspend`, { status: 'Suspended' })
    })
    const n = await check(client, statements, 40)
    console.log(`  [plans] ${n} statements of the request paths explained`)
  })

  test("a run's read of calls starts at the last run's cutoff, and looks their Call Charges rows up by index", async ({ h, client }) => {
    // Three calls a customer, one a month; the runs above billed up to 2026-02-28.
    await sql
      .raw(
        `insert into calls ("customerID", "numberID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp")
         select (g - 1) / 3 + 1, ((g - 1) / 3) * 3 + 1, '2026-0' || ((g - 1) % 3 + 1) || '-10T10:00:00.000Z', 100, 1, 0, 'plan-' || g, '2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'
         from generate_series(1, ${CUSTOMERS * 3}) g`,
      )
      .execute(h.platform.database.db)
    await sql.raw('analyze calls').execute(h.platform.database.db)
    const statements = await statementsOf(async () => {
      await bill(h, '2026-03-31')
    })
    const [text, params] = [...statements].find(([t]) => /from "calls" (left join .* )?where/s.test(t) && t.includes('"calls"."startTime" >='))!
    assert.ok(text, 'the run read calls from a start')
    const nodes = await planNodes(client, text, params)
    // Calls and transactions are partitioned tables: their plans name the partitions and each one's own index.
    const scan = nodes.find((n) => n['Relation Name'] !== undefined && tableOf(String(n['Relation Name'])) === 'calls')!
    assert.is(await parentIndexOf(client, String(scan['Index Name'])), 'calls_customer_idx', JSON.stringify(scan))
    assert.match(String(scan['Index Cond']), /"startTime" >=/, 'the start is a bound of the index range, not a filter')
    const indexes = await Promise.all(nodes.flatMap((n) => (n['Index Name'] ? [parentIndexOf(client, String(n['Index Name']))] : [])))
    assert.ok(indexes.includes('transactions_call_charges_idx'), nodes.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' > '))
    const charges = await h.request('GET', '/transactions?transactionType=Call%20Charges&limit=1')
    assert.is(charges.body.length, 1, 'the calls were billed')
  })

  test('the final-bill and credit-alert lists read their partial indexes', async ({ h, client }) => {
    for (const [query, index] of [
      ['finalBill=true', 'customers_final_bill_idx'],
      ['creditAlert=any', 'customers_credit_alert_idx'],
    ]) {
      const statements = await statementsOf(async () => {
        assert.is((await h.request('GET', `/customers?${query}`)).status, 200)
      })
      const [text, params] = [...statements].find(([t]) => t.includes('from "customers" where'))!
      const nodes = await planNodes(client, text, params)
      assert.ok(nodes.some((n) => n['Index Name'] === index), `${query}: ${nodes.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' > ')}`)
    }
  })

  test.run()
}
