import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sql } from 'kysely'
import pg from 'pg'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * A pooled Postgres connection whose backend ends while it is idle (the server restarted, an
 * administrator ended it) is dropped, and the next statement gets another: the process does not
 * end on the pool's 'error' event. For the main pool and for bulk transactions' own.
 */
if (activeTargets().includes('postgres')) {
  const test = suite<{ target: Target; database: Database; admin: pg.Client }>('idle connection errors [postgres]')
  test.before(async (ctx) => {
    ctx.target = openTarget('postgres')
    ctx.database = connect(ctx.target.databaseUrl, { schema: ctx.target.schema })
    await sql`create schema if not exists ${sql.id(ctx.target.schema!)}`.execute(ctx.database.db)
    ctx.admin = new pg.Client({ connectionString: ctx.target.databaseUrl })
    await ctx.admin.connect()
  })
  test.after(async (ctx) => {
    await ctx.admin.end()
    await ctx.database.close()
    await ctx.target.dispose()
  })

  const backendOf = async (db: Database['db']) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0].pid
  const end = async (admin: pg.Client, pid: number) => {
    await admin.query('select pg_terminate_backend($1)', [pid])
    // The idle connection hears of it when its socket closes.
    await new Promise((r) => setTimeout(r, 200))
  }

  test('the main pool drops an idle connection whose backend ended, and answers the next query', async ({ database, admin }) => {
    const pid = await backendOf(database.db)
    await end(admin, pid)
    const next = await backendOf(database.db)
    assert.is.not(next, pid)
  })

  test('a bulk transaction after its pool’s idle connection ended runs on another', async ({ database, admin }) => {
    const store = new KyselyStore(database.db, database.dialect, resourcesByName, { bulkWrites: database.bulkWrites })
    const pid = await store.bulkTransaction(async (trx) => backendOf((trx as KyselyStore).db))
    await end(admin, pid)
    const next = await store.bulkTransaction(async (trx) => backendOf((trx as KyselyStore).db))
    assert.is.not(next, pid)
  })

  test.run()
} else {
  console.log('idle connection errors [postgres]: skipped (no TEST_DATABASE_URL)')
}
