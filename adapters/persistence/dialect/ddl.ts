import type { ColumnDataType, CreateTableBuilder } from 'kysely'

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
}

export const sqliteDdl: DdlDialect = {
  types: { real: 'real', bigint: 'integer' },
  addIdColumn: (t) => t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  idRefType: 'integer',
}

export const postgresDdl: DdlDialect = {
  types: { real: 'double precision', bigint: 'bigint' },
  addIdColumn: (t) => t.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
  idRefType: 'bigint',
}
