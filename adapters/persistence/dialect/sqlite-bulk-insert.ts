import { CompiledQuery, sql } from 'kysely'
import type { BulkInsertDialect } from './bulk-insert.js'
import { writeRows } from './bulk-rows.js'
import { valuesInsertSql } from './values-sql.js'

const placeholder = () => '?'

export const sqliteBulkInsert: BulkInsertDialect = {
  placeholder,
  columnarInsertSql: () => null,
  columnarRowsSql: () => null,
  arrayParameter: (values) => values,
  // A connection of its own does (`sqliteCachingDialect`); an embedder's may not.
  insertsEachRow: false,
  insertsInWith: false,
  async bulkInsert(db, table, columns, rows, options = {}) {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)))
    const width = columns.length
    const sent: Promise<unknown>[] = []
    for (let i = 0; i < rows.length; i += perStatement) {
      const count = Math.min(perStatement, rows.length - i)
      // Filled by index into an array of its final length: pushing 30,000 values grew and copied
      // it a dozen times per statement, the largest allocation of a billing run.
      const parameters: unknown[] = new Array(count * width)
      writeRows(rows, i, i + count, width, parameters)
      const query = CompiledQuery.raw(valuesInsertSql(placeholder, table, columns.map((c) => c.name), count, options.onConflict), parameters)
      if (options.send) sent.push(options.send(query))
      else await db.executeQuery(query)
    }
    await Promise.all(sent)
  },
  async widenPageCache(db, mib) {
    const before = Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size ?? -2000)
    await sql.raw(`pragma cache_size = ${-Math.round(mib * 1024)}`).execute(db)
    return async () => void (await sql.raw(`pragma cache_size = ${before}`).execute(db))
  },
}

/** Parameters in one statement, under SQLite's limit (32,766). */
const MAX_PARAMETERS = 30_000
