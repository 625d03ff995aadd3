import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CompiledQuery } from 'kysely'
import pg from 'pg'
import { PipelinedClient } from '../../adapters/persistence/pg-pipeline/pipelined-transaction.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * Postgres's pipelined bulk transaction (`PipelinedClient`, on a connection in node-postgres's
 * pipeline mode): statements sent ahead go down the connection without waiting for each other's
 * answers, and run in the order sent, Kysely's own statements among them. Only Postgres has one.
 */
if (activeTargets().includes('postgres')) {
  const test = suite<{ target: Target; pool: pg.Pool; other: pg.PoolClient; client: pg.PoolClient; pipelined: PipelinedClient }>('pipelined writes [postgres]')
  const LOCK = 7_340_021

  test.before(async (ctx) => {
    ctx.target = openTarget('postgres')
    ctx.pool = new pg.Pool({ connectionString: ctx.target.databaseUrl, max: 3, options: `-c search_path=${ctx.target.schema}`, pipeline: true } as pg.PoolConfig)
    await ctx.pool.query(`create schema if not exists "${ctx.target.schema}"`)
    await ctx.pool.query('create table piped (id integer primary key, label text not null)')
  })
  test.after(async (ctx) => {
    await ctx.pool.end()
    await ctx.target.dispose()
  })
  test.before.each(async (ctx) => {
    await ctx.pool.query('delete from piped')
    ctx.other = await ctx.pool.connect()
    ctx.client = await ctx.pool.connect()
    ctx.pipelined = new PipelinedClient(ctx.client)
    await ctx.pipelined.query('begin', [])
  })
  test.after.each(async (ctx) => {
    // A test's transaction ends here, whatever it did with it (outside one, Postgres only warns).
    await ctx.client.query('rollback')
    ctx.pipelined.end()
    ctx.client.release()
    ctx.other.release()
  })

  const insert = (id: number, label = `row ${id}`) => CompiledQuery.raw('insert into piped (id, label) select * from unnest($1::integer[], $2::text[])', [`{${id}}`, `{"${label}"}`])
  const labels = async (client: { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> }) =>
    ((await client.query('select label from piped order by id', [])).rows as { label: string }[]).map((r) => r.label)

  test('statements sent ahead while one waits run in order once it ends, each answering with its count', async ({ other, pipelined }) => {
    // The first waits for a lock another connection holds.
    await other.query('select pg_advisory_lock($1)', [LOCK])
    const first = pipelined.ahead(CompiledQuery.raw('select pg_advisory_xact_lock($1)', [LOCK]))
    const second = pipelined.ahead(insert(1))
    const third = pipelined.ahead(insert(2))
    await new Promise((r) => setTimeout(r, 50))
    await other.query('select pg_advisory_unlock($1)', [LOCK])
    const results = await Promise.all([first, second, third])
    assert.equal(
      results.map((r) => r.numAffectedRows),
      [1n, 1n, 1n],
    )
    // A statement of the transaction's own follows them and sees what they wrote.
    assert.equal(await labels(pipelined), ['row 1', 'row 2'])
  })

  test('a statement of the transaction made between writes sent ahead runs between them', async ({ pipelined }) => {
    const first = pipelined.ahead(insert(1))
    const seen = labels(pipelined)
    const second = pipelined.ahead(insert(2))
    assert.equal(await seen, ['row 1'])
    await Promise.all([first, second])
    assert.equal(await labels(pipelined), ['row 1', 'row 2'])
  })

  test('a failure fails the statements sent after it with the transaction, each reporting the failure, and the connection is usable after the rollback', async ({ pipelined, client }) => {
    const sent = [pipelined.ahead(insert(1)), pipelined.ahead(insert(1, 'row 1 again')), pipelined.ahead(insert(2))]
    const settled = await Promise.allSettled(sent)
    assert.equal(
      settled.map((s) => s.status),
      ['fulfilled', 'rejected', 'rejected'],
    )
    const [refused, after] = (settled.slice(1) as PromiseRejectedResult[]).map((s) => s.reason as { code?: string })
    assert.is(refused.code, '23505', 'the unique violation')
    // The backend answers the statement after it with 25P02 ("current transaction is aborted"),
    // which says nothing of why: whichever of the two a caller awaits first tells the cause.
    assert.is(after, refused, 'the statement after it reports the same violation')
    await pipelined.query('select 1', []).then(
      () => assert.unreachable('ran in an aborted transaction'),
      (e: unknown) => assert.is(e, refused, 'and so does a statement awaited in the aborted transaction'),
    )
    await pipelined.query('rollback', [])
    assert.equal(await labels(client), [])
    assert.equal((await client.query('select 1 as one')).rows, [{ one: 1 }])
  })

  test('once the transaction is over nothing more is sent through it', async ({ pipelined }) => {
    await pipelined.query('commit', [])
    pipelined.end()
    await pipelined.ahead(insert(5)).then(
      () => assert.unreachable('sent'),
      (e: Error) => assert.match(e.message, /belongs to a transaction/),
    )
    await pipelined.query('select 1', []).then(
      () => assert.unreachable('sent'),
      (e: Error) => assert.match(e.message, /over/),
    )
  })

  test.run()
} else {
  console.log('pipelined writes [postgres]: skipped (no TEST_DATABASE_URL)')
}
