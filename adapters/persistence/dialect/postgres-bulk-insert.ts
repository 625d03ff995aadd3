import { CompiledQuery, type ColumnDataType } from 'kysely'
import type { BulkInsertDialect } from './bulk-insert.js'
import { writeRows } from './bulk-rows.js'
import { quoteIdent } from './quote.js'

export const postgresBulkInsert: BulkInsertDialect = {
  placeholder: (index) => `$${index}`,
  columnarInsertSql: (table, columns, types, doNothingOn) =>
    unnestInsertSql(table, columns, types, doNothingOn ? `on conflict (${doNothingOn.map(quoteIdent).join(', ')}) do nothing` : undefined),
  columnarRowsSql: (types, alias) => `unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}) as ${quoteIdent(alias)}(${types.map((_, i) => `column${i + 1}`).join(', ')})`,
  arrayParameter: postgresArray,
  insertsEachRow: false,
  insertsInWith: true,
  async bulkInsert(db, table, columns, rows, options = {}) {
    const text = unnestInsertSql(table, columns.map((c) => c.name), columns.map((c) => c.type), options.onConflict)
    const sent: Promise<unknown>[] = []
    for (let i = 0; i < rows.length; i += BULK_ROWS) {
      const count = Math.min(BULK_ROWS, rows.length - i)
      const width = columns.length
      const values = columns.map(() => new Array<unknown>(count))
      const row: unknown[] = new Array(width)
      for (let r = 0; r < count; r++) {
        writeRows(rows, i + r, i + r + 1, width, row)
        for (let c = 0; c < width; c++) values[c][r] = row[c]
      }
      // Each column's array as its text, written here (`postgresArray`): node-postgres escaping
      // every element was an eighth of a billing run's worker CPU (bench/RESULTS.md).
      const query = CompiledQuery.raw(text, values.map(postgresArray))
      if (options.send) sent.push(options.send(query))
      else await db.executeQuery(query)
    }
    await Promise.all(sent)
  },
  widenPageCache: async () => async () => {},
}

/**
 * A Postgres array parameter's text form, written here: node-postgres escapes each element
 * with two regex replacements, a tenth of an import's CPU profile (bench/rating.ts). An element
 * that needs no quotes goes in as it is, not copied into a quoted one: an import's columns are
 * mostly such text, and the copies were a tenth of what its server allocated (RESULTS).
 */
export function postgresArray(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === undefined) parts[i] = 'NULL'
    else if (typeof v === 'number' || typeof v === 'bigint') parts[i] = String(v)
    else {
      const s = String(v)
      parts[i] = needsQuotes(s) ? `"${s.replace(/["\\]/g, '\\$&')}"` : s
    }
  }
  return `{${parts.join(',')}}`
}

/**
 * Whether an array element must be quoted (Postgres's array input): when empty, when it spells
 * NULL, or when it holds a delimiter, a brace, a quote, a backslash or white space (which the
 * parser would trim or split on).
 */
const needsQuotes = (s: string): boolean => s === '' || UNSAFE.test(s) || (s.length === 4 && /^null$/i.test(s))
const UNSAFE = /[\s{},"\\]/

/** `INSERT … SELECT FROM unnest(…)` of one array parameter per column, cast to the column's type. */
function unnestInsertSql(table: string, columns: readonly string[], types: readonly ColumnDataType[], conflict?: string): string {
  const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')
  return `insert into ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) select * from unnest(${arrays})${conflict ? ` ${conflict}` : ''}`
}

/** Rows per bulk statement: a few MB of arrays at most. */
const BULK_ROWS = 10_000
