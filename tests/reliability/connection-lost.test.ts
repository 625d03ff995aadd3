import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import pg from 'pg'
import { openHarness, type Harness } from '../support/harness.js'
import { capturedLogger } from '../support/log-lines.js'
import { activeTargets } from '../support/targets.js'

/**
 * A Postgres connection whose backend ends while it is checked out (a failover, a restart, an
 * administrator's `pg_terminate_backend`) fails its own work and nothing else: the process goes
 * on (an unheard 'error' on the client would end it), one warning line says so, and the next
 * request gets another connection. For the main pool and for bulk transactions' own.
 */
if (activeTargets().includes('postgres')) {
  const test = suite<{ h: Harness; admin: pg.Client; log: ReturnType<typeof capturedLogger>; uncaught: unknown[] }>('a connection lost while checked out [postgres]')
  const heard = (ctx: { uncaught: unknown[] }) => (error: unknown) => void ctx.uncaught.push(error)
  let listener: (error: unknown) => void
  test.before(async (ctx) => {
    ctx.uncaught = []
    // An unheard client 'error' is thrown where no caller catches it: counted here, not fatal.
    listener = heard(ctx)
    process.on('uncaughtException', listener)
    ctx.log = capturedLogger('info')
    ctx.h = await openHarness('postgres', { config: { logger: ctx.log.logger } })
    ctx.admin = new pg.Client({ connectionString: ctx.h.target.databaseUrl, application_name: 'connection-lost-test' })
    await ctx.admin.connect()
  })
  test.after(async (ctx) => {
    await ctx.admin.end()
    await ctx.h.close()
    process.off('uncaughtException', listener)
  })

  const rejects = async (outcome: Promise<unknown>) => {
    const failed = await outcome.then(() => false, () => true)
    assert.ok(failed, 'the work failed')
  }

  /**
   * Runs `work` while the customers table is locked by the admin connection, ends the backend
   * that waits for the lock (only this test's: its waits are on the admin's lock), then unlocks.
   */
  async function endWaitingBackend<T>(admin: pg.Client, schema: string, work: () => Promise<T>): Promise<{ outcome: Promise<T>; pid: number }> {
    await admin.query('begin')
    await admin.query(`lock table ${pg.escapeIdentifier(schema)}.customers in access exclusive mode`)
    const outcome = work()
    outcome.catch(() => {})
    let pid: number | undefined
    for (let i = 0; i < 100 && pid === undefined; i++) {
      // Inside a transaction the activity view is a snapshot unless cleared.
      await admin.query('select pg_stat_clear_snapshot()')
      const rows = (await admin.query<{ pid: number }>('select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))')).rows
      pid = rows[0]?.pid
      if (pid === undefined) await new Promise((r) => setTimeout(r, 20))
    }
    assert.ok(pid, 'the work waits for the lock')
    await admin.query('select pg_terminate_backend($1)', [pid])
    await admin.query('rollback')
    return { outcome, pid: pid! }
  }

  test('a request whose connection ends mid-query fails, the process goes on, and the next request is answered', async (ctx) => {
    const { h, admin } = ctx
    const { outcome } = await endWaitingBackend(admin, h.target.schema!, () => h.request('GET', '/customers'))
    const failed = await outcome
    assert.ok(failed.status >= 500, `the request failed: ${failed.status} ${failed.text}`)
    // The socket's end follows the backend's message.
    await new Promise((r) => setTimeout(r, 100))
    assert.equal(ctx.uncaught.map(String), [])
    assert.is((await h.request('GET', '/customers')).status, 200)
    assert.is((await h.request('GET', '/readyz')).status, 200)
    const lost = ctx.log.entries().filter((e) => e.msg === 'database-connection-lost')
    assert.is(lost.length, 1, JSON.stringify(lost))
    assert.is(lost[0].level, 'warn')
  })

  test('a bulk transaction whose connection ends mid-query rejects, and the next runs on another', async (ctx) => {
    const { h, admin } = ctx
    const bulk = h.platform.database.bulkWrites!
    const count = () => bulk(async (trx) => (await sql<{ n: number }>`select count(*)::int as n from customers`.execute(trx)).rows[0].n)
    const { outcome } = await endWaitingBackend(admin, h.target.schema!, count)
    await rejects(outcome)
    await new Promise((r) => setTimeout(r, 100))
    assert.equal(ctx.uncaught.map(String), [])
    assert.type(await count(), 'number')
  })

  test('a transaction whose connection ends between its statements fails at the next', async (ctx) => {
    const { h, admin } = ctx
    let ended!: () => void
    const backendEnded = new Promise<void>((r) => (ended = r))
    let pid!: (n: number) => void
    const backend = new Promise<number>((r) => (pid = r))
    const outcome = h.platform.database.db.transaction().execute(async (trx) => {
      pid((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0].pid)
      await backendEnded
      return sql`select 1`.execute(trx)
    })
    outcome.catch(() => {})
    await admin.query('select pg_terminate_backend($1)', [await backend])
    await new Promise((r) => setTimeout(r, 100))
    ended()
    await rejects(outcome)
    assert.equal(ctx.uncaught.map(String), [])
    assert.is((await h.request('GET', '/readyz')).status, 200)
  })

  test.run()
} else {
  console.log('a connection lost while checked out [postgres]: skipped (no TEST_DATABASE_URL)')
}
