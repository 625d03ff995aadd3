import type { Db } from './schema/tables.js'
import { CompiledQuery, type ColumnDataType, type QueryResult } from 'kysely'
import type { DatabaseDialect } from './dialect/dialect.js'
import { quoteIdent } from './dialect/quote.js'
import { valuesInsertSql } from './dialect/values-sql.js'
import { EACH_ROW } from './statement-cache.js'
import type { WriteAhead } from './bulk-writes.js'

/** Parameters in one multi-row VALUES statement, under SQLite's limit (32,766) and Postgres's (65,535). */
const MAX_PARAMETERS = 30_000

/** Rows in one columnar statement: the arrays of a chunk are built in memory before it is sent. */
const COLUMNAR_ROWS = 10_000

/**
 * Inserts many rows, given column by column (`values[c][r]` is row r's value of column c, every
 * array `count` long), as SQL text rather than through Kysely's builder: building a query node
 * for every value of a 50,000-row write cost more than the database's insert (bench/rating.ts).
 * With `doNothingOn`, rows whose values of those columns (a unique index's) exist already are skipped.
 * Postgres takes whole columns as arrays (the columns' `types` are needed): one short statement
 * per chunk instead of long VALUES lists to parse and plan, which cost less in this process and
 * in Postgres. SQLite on a connection of its own runs a prepared one-row statement for each row,
 * all in one call to the driver (`EACH_ROW`), which cost a third less than multi-row VALUES
 * lists of ~30,000 parameters (bench/RESULTS.md); on an embedder's connection it uses the lists.
 * Columns are the input: a column array is Postgres's parameter itself and `EACH_ROW`'s, and the
 * VALUES lists' row-major parameters are filled from them in one pass. Returns how many rows
 * were inserted.
 */
export function insertColumns(
  db: Db,
  dialect: DatabaseDialect,
  table: string,
  columns: readonly string[],
  values: readonly (readonly unknown[])[],
  count: number,
  options: {
    readonly doNothingOn?: readonly string[]
    readonly types: readonly ColumnDataType[]
    /** Runs each statement instead of `db` (a bulk transaction's `WriteAhead`). */
    readonly send?: WriteAhead
    /** The columnar statement to send instead of `columnarInsertSql`'s, where the dialect has that form (call-key-claims.ts). */
    readonly columnar?: string
  },
): Promise<number> {
  const plain = dialect.columnarInsertSql(table, columns, options.types, options.doNothingOn)
  const columnar = plain && (options.columnar ?? plain)
  const conflict = options.doNothingOn ? `on conflict (${options.doNothingOn.map(quoteIdent).join(', ')}) do nothing` : undefined
  const eachRow = columnar ? null : dialect.insertsEachRow ? EACH_ROW + valuesInsertSql(dialect.placeholder, table, columns, 1, conflict) : null
  const perStatement = columnar ? COLUMNAR_ROWS : eachRow ? count : Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)))
  const chunk = (from: number, to: number) => values.map((column) => (from === 0 && to === column.length ? column : column.slice(from, to)))
  const statement = (from: number, to: number) =>
    columnar
      ? CompiledQuery.raw(columnar, chunk(from, to).map((column) => dialect.arrayParameter(column)))
      : eachRow
        ? CompiledQuery.raw(eachRow, chunk(from, to).map((column, c) => (c === 0 ? column : sameValueColumn(column))))
        : CompiledQuery.raw(valuesInsertSql(dialect.placeholder, table, columns, to - from, conflict), rowMajor(values, from, to))
  const run = options.send ?? ((query: CompiledQuery) => db.executeQuery(query))
  if (count === 0) return Promise.resolve(0)
  if (count > perStatement) return runEach(count, perStatement, statement, run)
  // One statement (an import's batch) is sent from a function that returns at once, so nothing
  // here keeps the rows alive while the answer is awaited: an import has two batches in flight,
  // and what lives across them is what each young-generation collection copies.
  try {
    return run(statement(0, count)).then(affectedRows)
  } catch (error) {
    return Promise.reject(error)
  }
}

const affectedRows = (result: QueryResult<unknown>) => Number(result.numAffectedRows ?? 0)

/**
 * A column whose rows all hold one value, as that value alone (`EACH_ROW` binds it in every
 * row): an import's batch went to a SQLite file's writes thread with its file ID and stamps
 * copied a thousand times each. Its message is 150 KB rather than 242, and posting it takes half
 * the time (bench/RESULTS.md, session 21). The first column is sent whole whatever it holds:
 * `EACH_ROW` counts the rows by the longest column, and rows alike in every column are still
 * that many rows.
 */
function sameValueColumn(column: readonly unknown[]): readonly unknown[] {
  const first = column[0]
  for (let i = 1; i < column.length; i++) if (column[i] !== first) return column
  return column.length > 1 ? [first] : column
}

async function runEach(count: number, perStatement: number, statement: (from: number, to: number) => CompiledQuery, run: (query: CompiledQuery) => Promise<QueryResult<unknown>>): Promise<number> {
  let inserted = 0
  for (let from = 0; from < count; from += perStatement) inserted += affectedRows(await run(statement(from, Math.min(count, from + perStatement))))
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
