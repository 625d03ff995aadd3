import { sql, type RawBuilder } from 'kysely'
import type { Field } from '../../../core/fields/field.js'
import { postgresArray } from './postgres-bulk-insert.js'
import { postgresPackedRead, sqlitePackedRead } from './packed-read.js'

/** Columns of a bulk read selected as one value (see `ReadsDialect.packedRead`). */
export interface PackedRead {
  /** The fields in `column`, in order; a read selects the others' columns as they are. */
  readonly packed: readonly Field[]
  readonly column: RawBuilder<unknown>
  /** The selected value as the packed fields' column values, in order. */
  unpack(value: unknown): unknown[]
}

/** How reads select their rows: lists of values as one parameter, columns as one value. */
export interface ReadsDialect {
  /**
   * `column` is one of `values` (strings or numbers), the list sent as one parameter (SQLite:
   * `in (select value from json_each(?))`, Postgres: `= any($1)`): one statement text whatever
   * the list's length, prepared once, where an `in (?, ?, …)` list of each length was a new
   * statement for SQLite to prepare and keep (an import looks up every batch's numbers this way),
   * and no limit on its length, where SQLite binds at most 32,766 parameters and Postgres 65,535.
   * `column` is a column's name, or an expression (a computed field's SQL).
   */
  inList(column: string | RawBuilder<unknown>, values: readonly (string | number | bigint)[]): RawBuilder<boolean>
  /**
   * The rows of `table` whose ID column `column` is one of `ids` and that meet `where`, as a
   * subquery to select from, each ID looked up in the index that leads with `column` however
   * large or small the table looks to the planner. SQLite's `inList` is. Postgres 15 costs
   * `= any(list)` on an index as one descent per value, and for a batch's 1,000 features chose
   * to scan the whole ledger until it held about 100,000 rows (a first billing run's ledger read
   * grew from 2 to 37 ms a batch; bench/RESULTS.md). There each ID (once, however often listed)
   * is a lateral subquery, which `offset 0` keeps the planner from turning back into that join.
   */
  rowsByIds<R>(table: string, column: string, ids: readonly (string | number | bigint)[], where: RawBuilder<boolean>): RawBuilder<R>
  /**
   * How a read of many rows selects these fields of a table as one value, for those that fit in
   * it exactly, or null to select every column as it is. SQLite: a JSON array, which
   * better-sqlite3 hands over faster than the columns one by one (bench/billing-run.ts,
   * bench/lists.ts; figures in bench/RESULTS.md). Postgres: null; packing a billing run's
   * columns cost the database more than it saved the driver (bench/billing-run.ts).
   */
  packedRead(table: string, fields: readonly Field[]): PackedRead | null
  /**
   * `packedRead` for a read of one row of a wide table (a GET of an item). Postgres packs too:
   * node-postgres describes every column of every result anew, which for a customer's 150
   * columns was most of a GET's CPU time (bench/get-customer.ts; figures in bench/RESULTS.md).
   */
  packedRow(table: string, fields: readonly Field[]): PackedRead | null
  /**
   * Whether a GET of one item has the database write its JSON, as a list page's (ListJson's
   * `get`), rather than read it packed (`packedRow`) and rendered by toWireJson. SQLite: yes;
   * on the request's own thread, json_object cost 16 µs against 11.5 for the packed read and
   * about 20 more to decode, render and encode the row (a GET 0.182 → 0.170 ms of CPU).
   * Postgres: no; the server's CPU for the JSON took a fifth of the throughput on a machine it
   * shares, for no less CPU here (bench/get-customer.ts; figures in bench/RESULTS.md, session 35).
   */
  readonly itemJson: boolean
  /**
   * `table`'s rows to join through `index`, one that covers what the statement reads of them
   * (`createCoveringIndex`). SQLite's planner, having no statistics, takes the rowid over any
   * index on `id`, and is told (`indexed by`, in a subquery it flattens); Postgres chooses.
   */
  throughIndex(table: string, index: string): RawBuilder<unknown>
  /**
   * A correlated subquery's rows as one JSON text: an array of arrays of `columns`' values (as
   * the subquery `rows` selects them, aliased `r`), in the order of `orderBy`, or null where rows are read
   * as rows. Postgres: `json_agg`, so a journal page is one row per invoice: node-postgres spent
   * half a page's CPU making row objects and their strings (by hand, 600,000 rows 2.8-3.2 s,
   * 200,000 packed 1.5 s; bench/RESULTS.md, session 32). SQLite: null (better-sqlite3's rows
   * are cheaper, and grouping per invoice cost SQLite more, session 31).
   */
  packedRows(rows: RawBuilder<unknown>, columns: readonly string[], orderBy: readonly string[]): RawBuilder<unknown> | null
}

export const sqliteReads: ReadsDialect = {
  inList: (column, values) => sql<boolean>`${expression(column)} in (select value from json_each(${jsonIds(values)}))`,
  rowsByIds: (table, column, ids, where) =>
    sql`(select * from ${sql.table(table)} where ${sql.ref(column)} in (select value from json_each(${jsonIds(ids)})) and ${where})`,
  packedRead: sqlitePackedRead,
  packedRow: sqlitePackedRead,
  itemJson: true,
  throughIndex: (table, index) => sql`(select * from ${sql.table(table)} indexed by ${sql.id(index)})`,
  packedRows: () => null,
}

export const postgresReads: ReadsDialect = {
  inList: (column, values) => sql<boolean>`${expression(column)} = any(${postgresArray(values)})`,
  rowsByIds: (table, column, ids, where) =>
    sql`(select "byId".* from unnest(${postgresArray([...new Set(ids.map(String))])}::bigint[]) as "id"("id") cross join lateral (select * from ${sql.table(table)} where ${sql.ref(column)} = "id"."id" and ${where} offset 0) as "byId")`,
  packedRead: () => null,
  packedRow: postgresPackedRead,
  itemJson: false,
  throughIndex: (table) => sql`${sql.table(table)}`,
  packedRows: (rows, columns, orderBy) =>
    sql`(select cast(json_agg(json_build_array(${sql.join(columns.map((c) => sql.ref(`r.${c}`)))}) order by ${sql.join(orderBy.map((c) => sql.ref(`r.${c}`)))}) as text) from (${rows}) r)`,
}

const expression = (column: string | RawBuilder<unknown>) => (typeof column === 'string' ? sql.ref(column) : column)

/** IDs for `json_each`: JSON has no BigInt (SQLite's IDs beyond 2^53), and the ID column's integer affinity reads their digits back. */
const jsonIds = (ids: readonly (string | number | bigint)[]) => JSON.stringify(ids.map((id) => (typeof id === 'bigint' ? id.toString() : id)))
