import type { ColumnDataType } from 'kysely'
import type { WriteAhead } from '../bulk-writes.js'
import type { Db } from '../schema/tables.js'
import type { BulkRows } from './bulk-rows.js'

/** A column of a bulk insert, with its column type (Postgres casts each column's array to it). */
export interface BulkColumn {
  readonly name: string
  readonly type: ColumnDataType
}

/** What a bulk insert adds to its statement: a conflict clause (written for both dialects). */
export interface BulkOptions {
  readonly onConflict?: string
  /**
   * Sends each statement at once, not after the last one's answer (`WriteAhead`): the insert's
   * statements then queue at the database together, and are awaited together.
   */
  readonly send?: WriteAhead
}

/** How many rows are written at once (imports, billing runs, restores). */
export interface BulkInsertDialect {
  /** The placeholder of the `index`-th (from 1) parameter in SQL written by hand (bulk inserts). */
  placeholder(index: number): string
  /**
   * SQL inserting rows sent column by column, one array parameter per column of the given
   * types (Postgres: `INSERT … SELECT FROM unnest(…)`, a short statement whatever the row
   * count), or null when the database has no such form and multi-row VALUES are used (SQLite).
   */
  columnarInsertSql(table: string, columns: readonly string[], types: readonly ColumnDataType[], doNothingOn?: readonly string[]): string | null
  /**
   * A FROM source of rows sent column by column as `columnarInsertSql` takes them, named `alias`
   * with columns `column1`, `column2`, … (as both databases name a VALUES list's), or null where
   * VALUES lists are used (SQLite). Postgres: `unnest(…)`, one short statement for thousands of
   * rows' updates, where a VALUES list of thousands of parameters is parsed and planned anew.
   */
  columnarRowsSql(types: readonly ColumnDataType[], alias: string): string | null
  /** One column's values (strings, numbers, bigints, nulls) as the parameter `columnarInsertSql` takes. */
  arrayParameter(values: readonly unknown[]): unknown
  /**
   * Whether the connection's driver runs a one-row INSERT marked `EACH_ROW` (statement-cache.ts)
   * once for each row of a parameter list of many rows: SQLite through `connect()`.
   */
  readonly insertsEachRow: boolean
  /**
   * Whether an INSERT may run in a WITH clause of another (Postgres's writable common table
   * expressions), so that rows of two tables go in one statement, one round trip; SQLite has none.
   */
  readonly insertsInWith: boolean
  /**
   * Inserts many rows (values encoded for the driver), a statement per chunk. Rows that others
   * must point at get their IDs from `reserveIds` first: nothing is returned. SQLite: multi-row
   * VALUES, statements kept prepared.
   * Postgres: one array per column through unnest, a few parameters a statement: a VALUES list
   * of 30,000 parameters cost Postgres more to parse and plan than the insert itself.
   */
  bulkInsert(db: Db, table: string, columns: readonly BulkColumn[], rows: BulkRows, options?: BulkOptions): Promise<void>
  /**
   * Lets the connection keep up to `mib` MiB of pages while a long write transaction runs, until
   * the returned function restores the setting. SQLite: PRAGMA cache_size (its default made a
   * large import spill and re-read index pages for every row); Postgres: the server's shared
   * buffers, nothing to do.
   */
  widenPageCache(db: Db, mib: number): Promise<() => Promise<void>>
}
