import type { Database as BetterSqlite, Statement } from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { generatedFunction } from '../../core/codegen/generated-function.js'

/** An insert longer than this is a bulk statement (a multi-row insert): kept in a smaller cache. */
const BULK_SQL = 8_000
const BULK = /^\s*insert\b/i

/**
 * better-sqlite3 as Kysely's SQLite driver sees it, with prepared statements kept: the driver
 * calls `prepare(sql)` for every query it runs, and compiling the SQL again each time was the
 * largest cost of a simple read (bench/get-customer.ts) and of bulk inserts, whose full-size
 * chunks repeat one long statement (bench/rating.ts). Statements are kept by SQL text in two
 * LRUs, a large one for ordinary statements and a small one for bulk ones (each holds a big
 * program); a statement still being iterated (a stream) is never handed out twice.
 */
export function cachingStatements(db: BetterSqlite, size = 256, bulkSize = 8): SqliteDatabase {
  const small = new Map<string, SqliteStatement & { readonly busy: boolean }>()
  const bulk = new Map<string, SqliteStatement & { readonly busy: boolean }>()
  return {
    prepare(sql: string) {
      // Only inserts are bulk: a list read's select is as long (its JSON expression) but is one
      // of the few statements every request makes.
      const cache = sql.length > BULK_SQL && BULK.test(sql) ? bulk : small
      const hit = cache.get(sql)
      if (hit && !hit.busy) {
        cache.delete(sql)
        cache.set(sql, hit)
        return hit
      }
      const stmt = sql.startsWith(EACH_ROW) ? eachRow(db.prepare(sql), sql) : rowsFromArrays(db.prepare(sql))
      if (!hit) {
        cache.set(sql, stmt)
        if (cache.size > (cache === bulk ? bulkSize : size)) cache.delete(cache.keys().next().value!)
      }
      return stmt
    },
    close() {
      small.clear()
      bulk.clear()
      db.close()
    },
  }
}

/**
 * Marks a one-row INSERT that is run once for each row of its parameters, which are the rows'
 * columns (parameter c is every row's value of column c): an import's batch cost a third less
 * this way than as one 1,000-row VALUES list, and one Kysely query per row would cost more than
 * that saves (figures in bench/RESULTS.md). Columns, not one row-major list, because a write
 * sent to another thread (`workerWrites`) is copied: arrays with holes (as `new Array(n)` makes
 * them) copy about five times slower than packed ones, as an import's columns are (bench/RESULTS.md).
 * A column of one value is that value in every row (`sameValueColumn`): a batch's file, stamps
 * and mostly its carrier are the same in each row, and copied to the writes thread once.
 */
export const EACH_ROW = '/* each row */ '

/** Runs a one-row statement for every row of the parameter columns: `changes` is their sum. */
export function eachRow(stmt: Statement, sql: string): SqliteStatement & { readonly busy: boolean } {
  // Every parameter is a `?` (the SQLite dialect writes no other, and no `?` in a name).
  const width = sql.split('?').length - 1
  return {
    reader: false,
    get busy() {
      return stmt.busy
    },
    all: () => {
      throw new Error('a statement run for each row returns no rows')
    },
    run(parameters) {
      const columns = parameters as readonly (readonly unknown[])[]
      const count = columns.reduce((most, c) => (Array.isArray(c) && c.length > most ? c.length : most), 0)
      if (width === 0 || columns.length !== width || columns.some((c) => !Array.isArray(c) || (c.length !== count && c.length !== 1))) {
        throw new Error(`${columns.length} parameters are not ${width} columns of one length (or of one value)`)
      }
      let changes = 0
      let lastInsertRowid: number | bigint = 0
      const row = new Array<unknown>(width)
      // A column of one value is bound in every row as it is; the others change row by row.
      const varying: number[] = []
      for (let c = 0; c < width; c++) {
        if (columns[c].length === 1) row[c] = columns[c][0]
        else varying.push(c)
      }
      for (let r = 0; r < count; r++) {
        for (const c of varying) row[c] = columns[c][r]
        const result = stmt.run(row)
        changes += result.changes
        lastInsertRowid = result.lastInsertRowid
      }
      return { changes, lastInsertRowid }
    },
    iterate: () => {
      throw new Error('a statement run for each row returns no rows')
    },
  }
}

/**
 * A reading statement that fetches rows as arrays and turns each into an object with one
 * object literal made for its columns: better-sqlite3 adds a row's columns one key at a time,
 * which for our wide tables (100-150 columns) cost more than the query itself (bench/lists.ts).
 * Later columns of the same name win, as they do in better-sqlite3's own objects.
 */
function rowsFromArrays(stmt: Statement): SqliteStatement & { readonly busy: boolean } {
  if (!stmt.reader) return stmt as unknown as SqliteStatement & { readonly busy: boolean }
  const toRow = rowMaker(stmt.columns().map((c) => c.name))
  const raw = stmt.raw(true)
  return {
    reader: true,
    get busy() {
      return raw.busy
    },
    all: (parameters) => (raw.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values)
    },
  }
}

/** A row's values as an object keyed by the column names, made with one object literal (`rowsFromArrays`). */
export function rowMaker(names: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  // The names are quoted with JSON.stringify, so any column name is a safe literal key.
  return generatedFunction<(values: readonly unknown[]) => Record<string, unknown>>({
    name: 'toRow',
    params: ['v'],
    body: `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}}`,
    fallback: (values) => {
      const row: Record<string, unknown> = {}
      names.forEach((n, i) => (row[n] = values[i]))
      return row
    },
  })
}
