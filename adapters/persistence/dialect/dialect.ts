import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely'

export type DialectName = 'sqlite' | 'postgres'

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
  /** A bigint parameter as the driver wants it. */
  encodeBigint(value: bigint): unknown
  /** A bigint column value as the driver returns it. */
  decodeBigint(value: unknown): bigint
  /** The columns named by a unique-constraint violation, or null when the error is not one. */
  uniqueViolation(error: unknown): { table?: string; columns: string[] } | null
  /** Whether SELECT … FOR UPDATE exists (SQLite serialises writers instead). */
  readonly rowLocks: boolean
  /** Serialises a critical section across processes: a Postgres advisory lock inside the transaction; SQLite's single writer already does. */
  lockKey(trx: Kysely<any>, key: string): Promise<void>
}
