import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'
import { insertColumns } from '../../adapters/persistence/insert-rows.js'
import { columnType } from '../../adapters/persistence/schema/columns.js'
import { uniqueKey } from '../../adapters/persistence/schema/month-partitions.js'
import { anyTables } from '../../adapters/persistence/schema/tables.js'
import { catalogue } from '../../core/fields/catalogue.js'
import { openBulkWriter, type BulkWriter } from './bulk-insert.js'
import type { BenchDatabase } from './database.js'

/**
 * Sets an import's stored calls aside, untimed: copied to `floor_rows` and deleted from calls
 * (the table then rebuilt), so that a floor inserts them into the calls table as the import
 * found it, not into one already holding them, whose larger indexes cost more a row.
 */
export async function setCallsAside(db: BenchDatabase, usageFileID: string): Promise<void> {
  await withWriter(db, async (writer) => {
    await writer.exec('drop table if exists floor_rows')
    await writer.exec(`create table floor_rows as select * from calls where "usageFileID" = ${Number(usageFileID)}`)
    // The floor reads the rows back a batch at a time by ID: without an index each batch sorted
    // the whole table (on Postgres 333 ms a batch, five untimed minutes a run).
    await writer.exec('create index floor_rows_id on floor_rows (id)')
    await removeCalls(writer, db, usageFileID)
  })
}

/** Deletes what a floor inserted (the usage file's calls again), untimed, leaving calls as the import found it. */
export async function removeFloorCalls(db: BenchDatabase, usageFileID: string): Promise<void> {
  await withWriter(db, (writer) => removeCalls(writer, db, usageFileID))
}

async function withWriter(db: BenchDatabase, work: (writer: BulkWriter) => Promise<void>): Promise<void> {
  const writer = openBulkWriter(db)
  try {
    await work(writer)
  } finally {
    await writer.close()
  }
}

async function removeCalls(writer: BulkWriter, db: BenchDatabase, usageFileID: string): Promise<void> {
  await writer.exec(`delete from calls where "usageFileID" = ${Number(usageFileID)}`)
  // Rebuilt, not only cleared: the rows' deleted index entries left Postgres's indexes twice
  // their size, and the floors then cost 18 % more than on the table the first import found
  // (bench/RESULTS.md, session 19). SQLite's file is rebuilt for the same reason.
  await writer.exec(db.kind === 'postgres' ? 'vacuum full calls' : 'vacuum')
}

/**
 * The database's own cost of an import's writes: the calls set aside (`setCallsAside`) inserted
 * again, unchanged, in the import's batches (`batch` rows, in ID order), through the statement
 * the import uses (`insertColumns`, with its conflict clause), in one transaction. Reading a batch
 * back is not timed; the inserts and the commit are. SQLite gets the import's page cache.
 * Returns the seconds taken.
 */
export async function batchedInsertSeconds(db: BenchDatabase, columns: readonly string[], batch: number, pageCacheMiB: number): Promise<number> {
  const { db: typed, dialect, close } = connect(db.childUrl)
  // The columns are the bench's list, named at run time.
  const kysely = anyTables(typed)
  const types = columns.map((c) => columnType(catalogue.calls.byName.get(c)!, dialect))
  let seconds = 0
  try {
    await kysely.connection().execute(async (conn) => {
      if (dialect.name === 'sqlite') await sql.raw(`pragma cache_size = ${-pageCacheMiB * 1024}`).execute(conn)
      await sql`begin`.execute(conn)
      let after = 0
      for (;;) {
        const rows = await conn.selectFrom('floor_rows').select(['id', ...columns]).where('id', '>', after).orderBy('id').limit(batch).execute()
        if (rows.length === 0) break
        after = Number(rows.at(-1)!.id)
        const values = columns.map((c) => rows.map((r) => r[c]))
        const start = performance.now()
        await insertColumns(conn, dialect, 'calls', columns, values, rows.length, { doNothingOn: uniqueKey(dialect, 'calls', ['fingerprint']), types })
        seconds += (performance.now() - start) / 1000
      }
      const start = performance.now()
      await sql`commit`.execute(conn)
      seconds += (performance.now() - start) / 1000
    })
  } finally {
    await close()
  }
  return seconds
}
