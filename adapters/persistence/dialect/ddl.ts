import { sql, type ColumnDataType, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely'

/** An index that holds more columns than it is searched by (`DdlDialect.createCoveringIndex`). */
export interface CoveringIndex {
  readonly name: string
  readonly table: string
  /** The column it is searched by, or columns (in order). */
  readonly key: string | readonly string[]
  /** The columns a read takes from it instead of the table's row. */
  readonly covered: readonly string[]
  /** A partial index's condition. */
  readonly where?: RawBuilder<boolean>
}

/** How the schema is written: column types by role and the `id` key (migrations, schema/columns.ts). */
export interface DdlDialect {
  /** Column types by role. */
  readonly types: {
    readonly real: ColumnDataType
    readonly bigint: ColumnDataType
  }
  /** Adds an auto-increasing integer primary key `id`. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>
  /** Column type for a foreign key to an `id` column. */
  readonly idRefType: ColumnDataType
  /**
   * Creates `index`: Postgres keeps the covered columns beside the key (`include`), SQLite as
   * further key columns. SQLite reads an index alone only when it holds every column the
   * statement names, a partial index's condition included.
   */
  createCoveringIndex(db: Kysely<any>, index: CoveringIndex): Promise<void>
  /**
   * Creates a table that is read as ranges of its primary key `key` (its `columns` given as
   * SQL). SQLite stores the rows in the key (`without rowid`: a range is one read, no row looked
   * up by rowid); Postgres keeps `covered` in the key's index (`include`), which a range reads
   * alone once the table is vacuumed.
   */
  createKeyedTable(db: Kysely<any>, table: string, columns: RawBuilder<unknown>, key: readonly string[], covered: readonly string[]): Promise<void>
}

const where = (index: CoveringIndex) => (index.where ? sql` where ${index.where}` : sql``)
const refs = (columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(c)))
const keyOf = (index: CoveringIndex): readonly string[] => (typeof index.key === 'string' ? [index.key] : index.key)

export const sqliteDdl: DdlDialect = {
  types: { real: 'real', bigint: 'integer' },
  addIdColumn: (t) => t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  idRefType: 'integer',
  createCoveringIndex: async (db, index) => {
    await sql`create index ${sql.id(index.name)} on ${sql.table(index.table)} (${refs([...keyOf(index), ...index.covered])})${where(index)}`.execute(db)
  },
  createKeyedTable: async (db, table, columns, key) => {
    await sql`create table ${sql.table(table)} (${columns}, primary key (${refs(key)})) without rowid`.execute(db)
  },
}

export const postgresDdl: DdlDialect = {
  types: { real: 'double precision', bigint: 'bigint' },
  addIdColumn: (t) => t.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
  idRefType: 'bigint',
  createCoveringIndex: async (db, index) => {
    await sql`create index ${sql.id(index.name)} on ${sql.table(index.table)} (${refs(keyOf(index))}) include (${refs(index.covered)})${where(index)}`.execute(db)
  },
  createKeyedTable: async (db, table, columns, key, covered) => {
    await sql`create table ${sql.table(table)} (${columns}, primary key (${refs(key)}) include (${refs(covered)}))`.execute(db)
  },
}
