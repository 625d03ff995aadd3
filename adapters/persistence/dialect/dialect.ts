import type { ColumnDataType, CreateTableBuilder, Kysely, RawBuilder } from 'kysely'
import type { Field } from '../../../core/fields/field.js'
import type { BulkRows } from './bulk-rows.js'

export type DialectName = 'sqlite' | 'postgres'

/** What a snapshot (disaster-recovery export and restore) needs to know about one table. */
export interface TableShape {
  /** Column names in definition order. */
  readonly columns: readonly string[]
  /** The primary key's columns in key order; empty when the table has none. */
  readonly primaryKey: readonly string[]
  /** Tables its foreign keys point at (a restore loads them first). */
  readonly references: readonly string[]
}

/** A column of a bulk insert, with its column type (Postgres casts each column's array to it). */
export interface BulkColumn {
  readonly name: string
  readonly type: ColumnDataType
}

/** What a bulk insert adds to its statement: a conflict clause (written for both dialects). */
export interface BulkOptions {
  readonly onConflict?: string
}

/** One member of an object the database writes as wire JSON (see `DatabaseDialect.wireJson`). */
export interface WireMember {
  readonly field: Field
  /** The member's stored value (a column, or a computed expression); null: always null (write-only fields). */
  readonly value: RawBuilder<unknown> | null
  /** The value is an expression, not a column: evaluated once, however often its conversion refers to it. */
  readonly computed?: boolean
}

/** What a wire read selects (as `w0`), and how that value becomes the item's JSON text in UTF-8. */
export interface WireSelect {
  readonly column: RawBuilder<unknown>
  readonly assemble: (value: unknown) => Uint8Array
}

/** Columns of a bulk read selected as one value (see `DatabaseDialect.packedRead`). */
export interface PackedRead {
  /** The fields in `column`, in order; a read selects the others' columns as they are. */
  readonly packed: readonly Field[]
  readonly column: RawBuilder<unknown>
  /** The selected value as the packed fields' column values, in order. */
  unpack(value: unknown): unknown[]
}

/**
 * Everything that differs between SQLite and Postgres, in one place (like Kysely's
 * DialectAdapter). Repositories and migrations are written once against this.
 */
export interface DatabaseDialect {
  readonly name: DialectName
  /** Column types by role. */
  readonly types: {
    readonly real: ColumnDataType
    readonly bigint: ColumnDataType
  }
  /** Adds an auto-increasing integer primary key `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>
  /** Column type for a foreign key to an `id` column. */
  readonly idRefType: ColumnDataType
  /** The planner's statistics of tables, kept current as jobs grow them (see `PlannerStatistics`); null where the planner needs none (SQLite). */
  readonly statistics: StatisticsDialect | null
  /** The placeholder of the `index`-th (from 1) parameter in SQL written by hand (bulk inserts). */
  placeholder(index: number): string
  /**
   * SQL inserting rows sent column by column, one array parameter per column of the given
   * types (Postgres: `INSERT … SELECT FROM unnest(…)`, a short statement whatever the row
   * count), or null when the database has no such form and multi-row VALUES are used (SQLite).
   */
  columnarInsertSql(table: string, columns: readonly string[], types: readonly ColumnDataType[], doNothingOn?: string): string | null
  /** One column's values (strings, numbers, bigints, nulls) as the parameter `columnarInsertSql` takes. */
  arrayParameter(values: readonly unknown[]): unknown
  /**
   * `column` is one of `values` (strings or numbers), the list sent as one parameter (SQLite:
   * `in (select value from json_each(?))`, Postgres: `= any($1)`): one statement text whatever
   * the list's length, prepared once, where an `in (?, ?, …)` list of each length was a new
   * statement for SQLite to prepare and keep (an import looks up every batch's numbers this way).
   */
  inList(column: string, values: readonly (string | number)[]): RawBuilder<boolean>
  /**
   * Lets the connection keep up to `mib` MiB of pages while a long write transaction runs, until
   * the returned function restores the setting. SQLite: PRAGMA cache_size (its default made a
   * large import spill and re-read index pages for every row); Postgres: the server's shared
   * buffers, nothing to do.
   */
  widenPageCache(db: Kysely<any>, mib: number): Promise<() => Promise<void>>
  /** A bigint parameter as the driver wants it. */
  encodeBigint(value: bigint): unknown
  /**
   * An ID (decimal text, as the domain holds IDs) as a parameter: what `encodeBigint(BigInt(id))`
   * would give, accepting and refusing the same texts, without a bigint on the way where the
   * driver takes something cheaper (a billing run encodes four IDs for every ledger row it
   * writes). Every ID a repository sends goes through it.
   */
  encodeId(id: string): unknown
  /** A bigint column value as the driver returns it. */
  decodeBigint(value: unknown): bigint
  /** The columns named by a unique-constraint violation, or null when the error is not one. */
  uniqueViolation(error: unknown): { table?: string; columns: string[] } | null
  /** Whether SELECT … FOR UPDATE exists (SQLite serialises writers instead). */
  readonly rowLocks: boolean
  /**
   * Whether a statement on another pooled connection runs while a transaction is open (Postgres);
   * SQLite has one connection, which the transaction holds until it ends.
   */
  readonly connectionsBesideTransactions: boolean
  /** Serialises a critical section across processes: a Postgres advisory lock inside the transaction; SQLite's single writer already does. */
  lockKey(trx: Kysely<any>, key: string): Promise<void>
  /** Every table of the current schema by name, Kysely's migration tables included (SQLite's own `sqlite_*` excluded). */
  listTables(db: Kysely<any>): Promise<string[]>
  describeTable(db: Kysely<any>, table: string): Promise<TableShape>
  /**
   * Runs `work` in one read-only transaction that sees a single consistent snapshot of every
   * table (Postgres: REPEATABLE READ, READ ONLY; SQLite: one transaction).
   */
  readSnapshot<T>(db: Kysely<any>, work: (trx: Kysely<any>) => Promise<T>): Promise<T>
  /** A column selected for a snapshot, as its stored value's text (Postgres casts; SQLite values are read as they are). */
  snapshotColumn(column: string): RawBuilder<unknown>
  /**
   * Inserts many rows (values encoded for the driver), a statement per chunk. Rows that others
   * must point at get their IDs from `reserveIds` first: nothing is returned. SQLite: multi-row
   * VALUES, statements kept prepared.
   * Postgres: one array per column through unnest, a few parameters a statement: a VALUES list
   * of 30,000 parameters cost Postgres more to parse and plan than the insert itself.
   */
  bulkInsert(db: Kysely<any>, table: string, columns: readonly BulkColumn[], rows: BulkRows, options?: BulkOptions): Promise<void>
  /**
   * Takes `count` new IDs of the table's `id` generator, ascending, for rows a caller inserts
   * with their IDs (rows that must be referred to before they exist). No other writer gets them.
   */
  reserveIds(db: Kysely<any>, table: string, count: number): Promise<bigint[]>
  /** After a restore loaded rows with their IDs, moves the table's `id` generator past them (SQLite's AUTOINCREMENT follows by itself). */
  resetIdSequence(db: Kysely<any>, table: string): Promise<void>
  /**
   * The text of a JSON object with these members, in this order, each value written as
   * toWireJson writes it (money as its decimal number, booleans, IDs as strings, preset lists as
   * arrays, unset lists as []), written by the database as far as it can: a read that only
   * answers a request takes that text instead of building an item of 150 fields and writing it
   * again (bench/get-customer.ts, bench/lists.ts). Numbers may be written with other digits
   * than JavaScript's, never with another value (tests/persistence/wire-json-sql.test.ts).
   */
  wireJson(members: readonly WireMember[]): WireSelect
  /**
   * How a bulk read of many rows selects these fields of a table as one value, for those that
   * fit in it exactly, or null to select every column as it is. SQLite: a JSON array, which
   * better-sqlite3 hands over faster than the columns one by one (bench/billing-run.ts; figures
   * in bench/RESULTS.md). Postgres: null, its driver parses the text of every column in any case.
   */
  packedRead(table: string, fields: readonly Field[]): PackedRead | null
}

/** How a database's planner statistics of a table are read and refreshed. */
export interface StatisticsDialect {
  /** Rows the planner last counted in the table, and rows written to it since by any connection (as far as the database has counted them yet). */
  tableCounts(db: Kysely<any>, table: string): Promise<{ known: number; modified: number }>
  /** Counts the table again (`ANALYZE`). */
  analyze(db: Kysely<any>, table: string): Promise<void>
}
