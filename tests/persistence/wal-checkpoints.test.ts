import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { existsSync, openSync, readSync, closeSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { sql } from 'kysely'
import SqliteDatabase from 'better-sqlite3'
import { connect, type Database } from '../../adapters/persistence/connect.js'
import { CHECKPOINT_EVERY_MS, FALLBACK_AUTOCHECKPOINT, START_AFTER_MS, walCheckpoints } from '../../adapters/persistence/sqlite-thread/wal-checkpoints.js'
import { activeTargets, openTarget, type Target } from '../support/targets.js'

/**
 * `walCheckpoints`: a SQLite file's log is copied into the file on a thread of its own, not in
 * the main connection's commits. SQLite files only: Postgres checkpoints in its server, and an
 * in-memory database has no log.
 */
const test = suite<{ target: Target; database: Database; file: string }>('write-ahead log checkpoints on a thread [sqlite-file]')
test.before.each(async (ctx) => {
  ctx.target = openTarget('sqlite-file')
  ctx.file = ctx.target.databaseUrl.slice('sqlite:'.length)
  ctx.database = connect(ctx.target.databaseUrl)
})
test.after.each(async (ctx) => {
  await ctx.database.close()
  await ctx.target.dispose()
})

/** The database file's own page count (its header, bytes 28-31): what checkpoints have copied into it, whatever the log holds. */
function pagesInFile(file: string): number {
  const fd = openSync(file, 'r')
  try {
    const header = Buffer.alloc(4)
    readSync(fd, header, 0, 4, 28)
    return header.readUInt32BE(0)
  } finally {
    closeSync(fd)
  }
}

async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (await done()) return true
  return done()
}

const setting = async (database: Database) => Number(Object.values((await sql<Record<string, number>>`pragma wal_autocheckpoint`.execute(database.db)).rows[0])[0])

if (activeTargets().includes('sqlite-file') && availableParallelism() >= 2) {
  test('commits leave the log to the thread, which copies it into the file', async ({ database, file }) => {
    assert.is(await setting(database), 1000, 'a connection starts on SQLite’s own checkpoints')
    assert.ok(await until(async () => (await setting(database)) === FALLBACK_AUTOCHECKPOINT, START_AFTER_MS + 5_000), 'then the main connection checkpoints only if the thread falls behind')
    await sql`create table filler (id integer primary key, bytes blob)`.execute(database.db)
    // About 1,500 pages in one commit: past SQLite's own threshold (1,000), short of the fallback.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 6000) insert into filler select i, randomblob(1000) from n`.execute(database.db)
    assert.ok(await until(() => pagesInFile(file) >= 1500, 10_000), `the file holds ${pagesInFile(file)} pages`)
    const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db)
    assert.is(Number(rows.rows[0].n), 6000)
  })

  test('closed, the database is whole in its file: the thread stops before the last connection', async ({ database, file }) => {
    await sql`create table filler (id integer primary key, bytes blob)`.execute(database.db)
    await sql`insert into filler values (1, randomblob(100))`.execute(database.db)
    assert.ok(await until(async () => (await setting(database)) === FALLBACK_AUTOCHECKPOINT, START_AFTER_MS + 5_000), 'the thread has started')
    await database.close()
    assert.not.ok(existsSync(`${file}-wal`), 'the last connection checkpointed and removed the log')
    const reopened = new SqliteDatabase(file, { readonly: true })
    try {
      assert.is((reopened.prepare('select count(*) as n from filler').get() as { n: number }).n, 1)
    } finally {
      reopened.close()
    }
    // after.each closes again: Kysely's destroy is idempotent, the thread already stopped.
  })

  test('a thread that ends without being stopped leaves the checkpoints to the commits again', async ({ file }) => {
    const sqlite = new SqliteDatabase(`${file}-other`)
    try {
      sqlite.pragma('journal_mode = WAL')
      // A file the thread cannot open: it fails as it starts.
      const checkpoints = walCheckpoints(sqlite, `${file}-missing/none.sqlite`, CHECKPOINT_EVERY_MS, 0)
      assert.is(sqlite.pragma('wal_autocheckpoint', { simple: true }), FALLBACK_AUTOCHECKPOINT)
      assert.ok(await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000, 10_000), 'SQLite’s own threshold again')
      await checkpoints.stop()
    } finally {
      sqlite.close()
    }
  })
} else test('skipped: needs a SQLite file target and two cores', () => {})

test.run()
