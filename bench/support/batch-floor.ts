import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'
import { insertColumns } from '../../adapters/persistence/insert-rows.js'
import { columnType } from '../../adapters/persistence/schema/columns.js'
import { anyTables } from '../../adapters/persistence/schema/tables.js'
import { catalogue } from '../../core/fields/catalogue.js'
import type { BenchDatabase } from './database.js'

/**
 * The database's own cost of an import's writes: a usage file's stored calls inserted again in
 * the import's batches (`batch` rows, in ID order), through the statement the import uses
 * (`insertColumns`, with its conflict clause), in one transaction, each row with a new
 * fingerprint (ending in x, never a hex digit). Reading a batch back is not timed; the inserts and the commit are. SQLite gets
 * the import's page cache. Returns the seconds taken.
 */
export async function batchedInsertSeconds(db: BenchDatabase, usageFileID: string, columns: readonly string[], batch: number, pageCacheMiB: number): Promise<number> {
  const { db: typed, dialect, close } = connect(db.childUrl)
  // The columns are the bench's list, named at run time.
  const kysely = anyTables(typed)
  const types = columns.map((c) => columnType(catalogue.calls.byName.get(c)!, dialect))
  let seconds = 0
  try {
    await kysely.connection().execute(async (conn) => {
      if (dialect.name === 'sqlite') await sql.raw(`pragma cache_size = ${-pageCacheMiB * 1024}`).execute(conn)
      await sql`begin`.execute(conn)
      const file = dialect.encodeId(usageFileID)
      const { last } = await conn.selectFrom('calls').select((eb) => eb.fn.max('id').as('last')).where('usageFileID', '=', file).executeTakeFirstOrThrow()
      let after = 0
      for (;;) {
        const rows = await conn.selectFrom('calls').select(['id', ...columns]).where('usageFileID', '=', file).where('id', '>', after).where('id', '<=', last).orderBy('id').limit(batch).execute()
        if (rows.length === 0) break
        after = Number(rows.at(-1)!.id)
        const values = columns.map((c) => rows.map((r) => (c === 'fingerprint' ? `${String(r[c]).slice(1)}x` : r[c])))
        const start = performance.now()
        await insertColumns(conn, dialect, 'calls', columns, values, rows.length, { doNothingOn: 'fingerprint', types })
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
