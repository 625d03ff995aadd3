import type { Db } from './schema/tables.js'
import { CompiledQuery, type ColumnDataType } from 'kysely'
import type { DatabaseDialect } from './dialect/dialect.js'

/** Parameters in one statement, under SQLite's limit (32,766) and Postgres's (65,535). */
const MAX_PARAMETERS = 30_000

const statements = new Map<string, string>()
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The multi-row INSERT for `count` rows, written once per shape (a full chunk repeats it). */
function insertSql(dialect: DatabaseDialect, table: string, columns: readonly string[], count: number, doNothingOn?: string): string {
  const key = `${dialect.name}|${table}|${columns.join(',')}|${count}|${doNothingOn ?? ''}`
  let text = statements.get(key)
  if (!text) {
    const tuples: string[] = []
    for (let r = 0, p = 1; r < count; r++) tuples.push(`(${columns.map(() => dialect.placeholder(p++)).join(', ')})`)
    text = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${tuples.join(', ')}${doNothingOn ? ` on conflict (${quote(doNothingOn)}) do nothing` : ''}`
    if (statements.size > 64) statements.clear()
    statements.set(key, text)
  }
  return text
}

/** Rows in one columnar statement: the arrays of a chunk are built in memory before it is sent. */
const COLUMNAR_ROWS = 10_000

/**
 * Inserts many rows, given column by column (`values[c][r]` is row r's value of column c, every
 * array `count` long), with multi-row INSERTs of ~30,000 parameters each, written as SQL text
 * rather than through Kysely's builder: building a query node for every value of a 50,000-row
 * write cost more than the database's insert (bench/billing-run.ts, bench/rating.ts). With
 * `doNothingOn`, rows whose value of that unique column exists already are skipped. With the
 * columns' `types`, a database that takes whole columns as arrays (Postgres) gets one short
 * statement per chunk instead of long VALUES lists to parse and plan, which cost less in this
 * process and in Postgres (bench/rating.ts; figures in bench/RESULTS.md). Columns are the input because that is what both statements read: a column
 * array is the parameter itself, and SQLite's row-major parameters are filled from them in one
 * pass; an array per row was 5,000 more objects a batch for the collector to copy. Returns how
 * many rows were inserted.
 */
export async function insertColumns(
  db: Db,
  dialect: DatabaseDialect,
  table: string,
  columns: readonly string[],
  values: readonly (readonly unknown[])[],
  count: number,
  options: { readonly doNothingOn?: string; readonly types?: readonly ColumnDataType[] } = {},
): Promise<number> {
  const columnar = options.types ? dialect.columnarInsertSql(table, columns, options.types, options.doNothingOn) : null
  const perStatement = columnar ? COLUMNAR_ROWS : Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)))
  let inserted = 0
  for (let from = 0; from < count; from += perStatement) {
    const to = Math.min(count, from + perStatement)
    const query = columnar
      ? CompiledQuery.raw(columnar, values.map((column) => dialect.arrayParameter(from === 0 && to === column.length ? column : column.slice(from, to))))
      : CompiledQuery.raw(insertSql(dialect, table, columns, to - from, options.doNothingOn), rowMajor(values, from, to))
    const result = await db.executeQuery(query)
    inserted += Number(result.numAffectedRows ?? 0)
  }
  return inserted
}

/** Rows `from`..`to` of the columns as one parameter array, row after row, written by index. */
function rowMajor(values: readonly (readonly unknown[])[], from: number, to: number): unknown[] {
  const width = values.length
  const out = new Array<unknown>((to - from) * width)
  for (let c = 0; c < width; c++) {
    const column = values[c]
    for (let r = from, at = c; r < to; r++, at += width) out[at] = column[r]
  }
  return out
}
