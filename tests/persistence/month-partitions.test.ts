import { sql } from 'kysely'
import pg from 'pg'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addMonthsAhead } from '../../adapters/persistence/months-ahead.js'
import type { JobLogEntry } from '../../adapters/scheduler/scheduler.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const stamp = '2026-01-05T00:00:00.000Z'

/** The coming months' partitions, made ahead by the worker (Postgres; SQLite keeps plain tables). */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`month partitions ahead [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after.each(async (ctx) => ctx.h.close())

  const insertCall = (h: Harness, start: string, fingerprint: string) =>
    sql`insert into calls ("customerID", "startTime", cost, rated, deleted, fingerprint, "createdStamp", "updatedStamp") values (1, ${start}, 100, 1, 0, ${fingerprint}, ${stamp}, ${stamp})`.execute(h.platform.database.db)
  const whereCalls = async (h: Harness) =>
    (await sql<{ id: unknown; part: string }>`select id, tableoid::regclass::text as part from calls order by id`.execute(h.platform.database.db)).rows.map((r) => [Number(r.id), r.part])

  test('this month and the next two get partitions once; rows waiting in the default partition move into theirs', async ({ h }) => {
    const { database } = h.platform
    const partitions = database.dialect.partitions
    if (!partitions) {
      assert.equal(await addMonthsAhead(database, '2026-02-14'), [], 'SQLite keeps plain tables')
      return
    }
    // Rows of months without a partition wait in the default one; an insert never fails for want of one.
    await insertCall(h, '2026-03-31T23:59:59.999Z', 'march')
    await insertCall(h, '2026-05-01T00:00:00.000Z', 'may')
    await insertCall(h, '2026-04-01T00:00:00.000Z', 'april')
    assert.equal(await whereCalls(h), [[1, 'calls_default'], [2, 'calls_default'], [3, 'calls_default']])
    assert.equal(await addMonthsAhead(database, '2026-02-14'), [
      'calls_2026_02', 'calls_2026_03', 'calls_2026_04',
      'transactions_2026_02', 'transactions_2026_03', 'transactions_2026_04',
    ])
    assert.equal(await whereCalls(h), [[1, 'calls_2026_03'], [2, 'calls_default'], [3, 'calls_2026_04']])
    assert.equal(await addMonthsAhead(database, '2026-02-28'), [], 'made already')
    assert.equal(await partitions.months(database.db, 'calls'), ['2026-02', '2026-03', '2026-04'])
    // The moved rows are still the table's: found by ID, counted once, unique by fingerprint.
    const found = await sql<{ n: unknown }>`select count(*) as n from calls where id = 1`.execute(database.db)
    assert.is(Number(found.rows[0].n), 1)
    await insertCall(h, '2026-03-31T23:59:59.999Z', 'march').then(
      () => assert.unreachable('the moved row no longer held its fingerprint'),
      () => {},
    )
  })

  test('months that exist are found without waiting for a lock: a long read of the default partition holds up nothing', async ({ h }) => {
    const { database } = h.platform
    if (!database.dialect.partitions) return
    assert.is((await addMonthsAhead(database, '2026-02-14')).length, 6)
    // A billing step's read of the default partition, still open (another connection, in a transaction).
    const reader = new pg.Client({ connectionString: h.target.databaseUrl, options: `-c search_path=${h.target.schema}` })
    await reader.connect()
    try {
      await reader.query('begin')
      await reader.query('select count(*) from transactions_default')
      // Every worker asks for these months as it starts: with the lock taken first, the first of the
      // six waited out the 10 s lock timeout behind the read (and queued every statement after it), then failed.
      assert.equal(await addMonthsAhead(database, '2026-02-20'), [])
    } finally {
      await reader.query('rollback').catch(() => {})
      await reader.end()
    }
  })

  test('the worker job makes them at start and daily', async ({ h }) => {
    const log: JobLogEntry[] = []
    const scheduler = h.platform.createScheduler({ onJobEnd: (e) => log.push(e) })
    try {
      if (!h.platform.database.dialect.partitions) {
        await scheduler.runNow('month-partitions').then(
          () => assert.unreachable('SQLite has no such job'),
          () => {},
        )
        return
      }
      // The harness's clock is at 2026-01-15.
      await scheduler.runNow('month-partitions')
      await scheduler.runNow('month-partitions')
      assert.equal(log.map((e) => [e.job, e.outcome, e.result?.made ?? null]), [['month-partitions', 'done', 6], ['month-partitions', 'done', null]])
      assert.equal(await h.platform.database.dialect.partitions.months(h.platform.database.db, 'transactions'), ['2026-01', '2026-02', '2026-03'])
    } finally {
      await scheduler.stop()
    }
  })

  test('an old month is detached, exported, counted and dropped (docs/scaling.md); reads no longer see it', async ({ h }) => {
    const { database } = h.platform
    if (!database.dialect.partitions) return
    await addMonthsAhead(database, '2026-01-15', 1)
    await insertCall(h, '2026-01-10T10:00:00.000Z', 'january-1')
    await insertCall(h, '2026-01-11T10:00:00.000Z', 'january-2')
    await insertCall(h, '2026-02-10T10:00:00.000Z', 'february')
    const client = new pg.Client({ connectionString: h.target.databaseUrl, options: `-c search_path=${h.target.schema}` })
    await client.connect()
    try {
      // CONCURRENTLY is refused inside a transaction, and beside a default partition at all.
      await client.query('begin')
      await client.query('alter table calls detach partition calls_2026_01 concurrently').then(
        () => assert.unreachable('detached concurrently in a transaction'),
        (e: Error) => assert.match(e.message, /transaction block/),
      )
      await client.query('rollback')
      await client.query('alter table calls detach partition calls_2026_01 concurrently').then(
        () => assert.unreachable('detached concurrently beside a default partition'),
        (e: Error) => assert.match(e.message, /default partition/),
      )
      // The procedure: a plain detach, waiting for the table's lock a few seconds at most (tried again later otherwise).
      await client.query(`set lock_timeout = '5s'`)
      await client.query('alter table calls detach partition calls_2026_01')
      const exported = (await client.query('select * from calls_2026_01 order by id')).rows
      const counted = Number((await client.query('select count(*) as n from calls_2026_01')).rows[0].n)
      assert.is(exported.length, counted)
      assert.is(counted, 2)
      await client.query('drop table calls_2026_01')
    } finally {
      await client.end()
    }
    assert.equal(await database.dialect.partitions.months(database.db, 'calls'), ['2026-02'])
    const listed = await h.request('GET', '/calls?limit=100')
    assert.equal(listed.body.map((c: { startTime: string }) => c.startTime), ['2026-02-10T10:00:00.000Z'])
    // A late call of the dropped month still goes in: to the default partition.
    await insertCall(h, '2026-01-12T10:00:00.000Z', 'january-late')
    assert.equal((await whereCalls(h)).map(([, part]) => part), ['calls_2026_02', 'calls_default'])
  })

  test.run()
}
