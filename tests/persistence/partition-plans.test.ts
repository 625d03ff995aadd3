import { sql } from 'kysely'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { tableOf } from '../support/partition-names.js'
import { seedCustomersAndNumbers } from '../support/postgres-seed.js'
import { activeTargets } from '../support/targets.js'
import { statementsOf } from '../support/sent-statements.js'
import { monthPartitioned } from '../../adapters/persistence/schema/month-partitions.js'

/**
 * Calls and transactions as a partition per month (Postgres, migration 0058): a billing run's
 * read of calls, a list of calls from a start and a usage import touch only the months they
 * need; a list of calls reads each month of transactions once for its page; a run's read of
 * calls and an import's read of a month's allowance calls, prepared, are planned once
 * (generically) with their months only. Reads are checked by the partitions their plans name
 * (pruned when planned); an import's insert by the partitions it locks, as rows are routed to a
 * partition only when one arrives.
 */
const CUSTOMERS = 200
const MONTHS = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']

/** The partitions of `table` a statement's plan reads. */
async function partitionsRead(client: pg.Client, table: string, text: string, params: unknown[]): Promise<string[]> {
  const { rows } = await client.query(`explain (format json) ${text}`, params)
  const found = new Set<string>()
  const walk = (node: Record<string, unknown>) => {
    const relation = node['Relation Name'] as string | undefined
    if (relation && relation !== table && tableOf(relation) === table) found.add(relation)
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
  }
  walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0].Plan)
  return [...found].sort()
}

/**
 * The partitions of `table` that a statement's generic plan holds: the statement prepared and run
 * eight times (the sixth on takes the generic plan where Postgres finds it no dearer), in a
 * transaction whose locks then name what the plans held (a generic plan locks every partition it
 * names when it starts, pruned or not).
 */
let probes = 0
async function genericPlanOf(client: pg.Client, table: string, text: string, params: unknown[]): Promise<string[]> {
  // A name of its own each time: pg remembers a name it prepared, deallocated or not.
  const name = `generic_probe_${++probes}`
  await client.query('begin')
  try {
    for (let n = 0; n < 8; n++) await client.query({ name, text, values: params })
    const { rows } = await client.query<{ generic: number }>('select generic_plans::int as generic from pg_prepared_statements where name = $1', [name])
    assert.ok(rows[0].generic > 0, `the generic plan was chosen: ${text}`)
    const locked = await client.query<{ name: string }>(
      `select c.relname as name from pg_locks l join pg_class c on c.oid = l.relation where l.pid = pg_backend_pid() and c.relkind in ('r', 'p') order by 1`,
    )
    return locked.rows.map((r) => r.name).filter((n) => tableOf(n) === table)
  } finally {
    await client.query('rollback')
    await client.query(`deallocate ${name}`)
  }
}

for (const target of activeTargets().filter((t) => t === 'postgres')) {
  const test = suite<{ h: Harness; client: pg.Client }>(`partition pruning of calls and transactions [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-04-10T09:00:00Z' })
    const { db, dialect } = ctx.h.platform.database
    for (const month of MONTHS) {
      await dialect.partitions!.addMonth(db, 'calls', monthPartitioned.calls, month)
      await dialect.partitions!.addMonth(db, 'transactions', monthPartitioned.transactions, month)
    }
    await seedCustomersAndNumbers(db, CUSTOMERS)
    // A call a customer on the 10th of each month from January to April, on its first number.
    await sql
      .raw(
        `insert into calls ("customerID", "numberID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp")
         select c, (c - 1) * 3 + 1, '2026-0' || m || '-10T10:00:00.000Z', 100, 1, 0, 'seed-' || c || '-' || m, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
         from generate_series(1, ${CUSTOMERS}) c, generate_series(1, 4) m`,
      )
      .execute(db)
    await sql.raw('analyze').execute(db)
    ctx.client = new pg.Client({ connectionString: ctx.h.target.databaseUrl, options: `-c search_path=${ctx.h.target.schema}` })
    await ctx.client.connect()
  })
  test.after(async (ctx) => {
    await ctx.client.end()
    await ctx.h.close()
  })

  test("a billing run reads the calls of the months from the last run's cutoff up to its own", async ({ h, client }) => {
    await bill(h, '2026-01-31')
    const statements = await statementsOf(() => bill(h, '2026-03-31'))
    const reads = [...statements].filter(([t]) => /from "calls" (left join .* )?where/s.test(t) && t.includes('"calls"."startTime" >='))
    assert.ok(reads.length > 0, 'the run read calls from a start')
    // From 2026-02-01 (the last run's cutoff) to before 2026-04-01: not January's, April's or the default partition.
    for (const [text, params] of reads) assert.equal(await partitionsRead(client, 'calls', text, params), ['calls_2026_02', 'calls_2026_03'], text)
    // Prepared, as the platform prepares what a connection repeats (a batch of customers each
    // time): Postgres takes its generic plan from the sixth execution on, with the run's months
    // still the only ones in it, instead of planning each batch again over every month (its
    // bounds as parameters made a generic plan of every month, which it never chose).
    for (const [text, params] of reads) assert.equal(await genericPlanOf(client, 'calls', text, params), ['calls', 'calls_2026_02', 'calls_2026_03'], text)
    const charges = await h.request('GET', '/transactions?transactionType=Call%20Charges&limit=1000')
    assert.is(charges.body.length, CUSTOMERS * 2, 'each run billed its calls')
  })

  test('a list of calls from a start reads the months from it on (and the default partition, which holds later ones)', async ({ h, client }) => {
    const statements = await statementsOf(async () => {
      const r = await h.request('GET', '/calls?startedSince=2026-03-01T00:00:00Z&limit=10')
      assert.is(r.status, 200, r.text)
      assert.is(r.body.length, 10)
    })
    const reads = [...statements].filter(([t]) => t.includes('from "calls"'))
    assert.ok(reads.length > 0)
    for (const [text, params] of reads) assert.equal(await partitionsRead(client, 'calls', text, params), ['calls_2026_03', 'calls_2026_04', 'calls_2026_05', 'calls_default'], text)
  })

  test("a list of a customer's calls reads each month of transactions once for the page, not once a call", async ({ h, client }) => {
    await bill(h, '2026-04-30')
    const statements = await statementsOf(async () => {
      const r = await h.request('GET', '/customers/7/calls/?limit=100')
      assert.is(r.status, 200, r.text)
      assert.is(r.body.length, 4)
      assert.ok(r.body.every((call: { transactionID: unknown }) => call.transactionID !== null), 'every call billed')
    })
    const reads = [...statements].filter(([t]) => t.includes('from "calls"'))
    assert.ok(reads.length > 0)
    for (const [text, params] of reads) {
      const { rows } = await client.query(`explain (analyze, format json) ${text}`, params)
      const loops: Record<string, number> = {}
      const walk = (node: Record<string, unknown>) => {
        const relation = node['Relation Name'] as string | undefined
        if (relation && tableOf(relation) === 'transactions') loops[relation] = (loops[relation] ?? 0) + Number(node['Actual Loops'])
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
      }
      walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0].Plan)
      // Every month's partition (a Call Charges row's dateFrom bounds nothing exact), each read once.
      assert.equal(Object.keys(loops).sort(), [...MONTHS.map((m) => `transactions_${m.replace('-', '_')}`), 'transactions_default'], text)
      for (const [partition, n] of Object.entries(loops)) assert.is(n, 1, `${partition} read ${n} times`)
    }
  })

  test("an import's read of a month's allowance calls is planned once a connection, with that month only", async ({ h, client }) => {
    const customers = Array.from({ length: 50 }, (_, i) => String(i + 1))
    const statements = await statementsOf(() => h.platform.context.store.rating.allowanceCalls(customers, '2026-03-01T00:00:00.000Z' as never, '2026-04-01T00:00:00.000Z' as never))
    const reads = [...statements].filter(([t]) => t.includes('from "calls"'))
    assert.is(reads.length, 1)
    assert.equal(await partitionsRead(client, 'calls', ...reads[0]), ['calls_2026_03'])
    assert.equal(await genericPlanOf(client, 'calls', ...reads[0]), ['calls', 'calls_2026_03'])
  })

  test("a usage import writes and checks for duplicates in its calls' months only", async ({ h, client }) => {
    const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
    const body = `${header}\n00100000001,07700900123,2026-03-14T10:00:00Z,61,MOB,mobile,Gamma\n00100000004,07700900124,2026-03-20T10:05:00Z,10,MOB,mobile,Gamma\n`
    const upload = () => h.request('POST', '/usageFiles?name=march.csv', undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
    const statements = await statementsOf(async () => assert.is((await upload()).status, 201))
    const inserts = [...statements].filter(([t]) => /^\s*insert into "calls"/i.test(t))
    assert.ok(inserts.length > 0, 'the import inserted calls')
    // The same insert again (the rows are there now: each is a duplicate, checked against its
    // month's index) locks the partitions it routes rows to, and no other.
    for (const [text, params] of inserts) {
      await client.query('begin')
      try {
        const inserted = await client.query(text, params)
        assert.is(inserted.rowCount, 0, 'both are duplicates')
        const { rows } = await client.query<{ name: string }>(
          `select c.relname as name from pg_locks l join pg_class c on c.oid = l.relation where l.pid = pg_backend_pid() and c.relkind in ('r', 'p') order by 1`,
        )
        assert.equal(rows.map((r) => r.name).filter((n) => tableOf(n) === 'calls'), ['calls', 'calls_2026_03'])
      } finally {
        await client.query('rollback')
      }
    }
    // Sent again, the file's calls are counted where its records' starts put them.
    const counted = await statementsOf(async () => assert.is((await upload()).body.duplicates, 2))
    const counts = [...counted].filter(([t]) => /from "calls" where "usageFileID"/.test(t))
    assert.is(counts.length, 1, 'the stored calls were counted')
    assert.equal(await partitionsRead(client, 'calls', ...counts[0]), ['calls_2026_03'])
  })

  test.run()
}
