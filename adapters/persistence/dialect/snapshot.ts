import { sql, type RawBuilder } from 'kysely'
import type { AnyDb, Db } from '../schema/tables.js'

/** What a snapshot (disaster-recovery export and restore) needs to know about one table. */
export interface TableShape {
  /** Column names in definition order. */
  readonly columns: readonly string[]
  /** The primary key's columns in key order; empty when the table has none. */
  readonly primaryKey: readonly string[]
  /** Tables its foreign keys point at (a restore loads them first). */
  readonly references: readonly string[]
}

/** How a snapshot of the whole database is read (disaster-recovery export, test fingerprints). */
export interface SnapshotDialect {
  /** Every table of the current schema by name, Kysely's migration tables included (SQLite's own `sqlite_*` excluded: `sqlite_sequence`'s counters come through `readIdCounters`). */
  listTables(db: Db): Promise<string[]>
  describeTable(db: Db, table: string): Promise<TableShape>
  /**
   * Runs `work` in one read-only transaction that sees a single consistent snapshot of every
   * table (Postgres: REPEATABLE READ, READ ONLY; SQLite: one transaction).
   */
  readSnapshot<T>(db: Db, work: (trx: AnyDb) => Promise<T>): Promise<T>
  /** A column selected for a snapshot, as its stored value's text (Postgres casts; SQLite values are read as they are). */
  snapshotColumn(column: string): RawBuilder<unknown>
}

export const sqliteSnapshot: SnapshotDialect = {
  async listTables(db) {
    const { rows } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and substr(name, 1, 7) <> 'sqlite_' order by name`.execute(db)
    return rows.map((r) => r.name)
  },
  async describeTable(db, table) {
    const columns = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table}) order by cid`.execute(db)
    const refs = await sql<{ target: string }>`select distinct "table" as target from pragma_foreign_key_list(${table})`.execute(db)
    return {
      columns: columns.rows.map((r) => r.name),
      primaryKey: columns.rows.filter((r) => r.pk > 0).sort((a, b) => a.pk - b.pk).map((r) => r.name),
      references: refs.rows.map((r) => r.target),
    }
  },
  // The connection is held for the whole transaction, and in WAL mode its reads see the
  // database as of the first one: one consistent snapshot. Read only, it begins deferred
  // (`ImmediateSqliteDialect`): it does not hold the write lock, so other processes write meanwhile.
  readSnapshot: (db, work) => db.transaction().setAccessMode('read only').execute(work),
  snapshotColumn: (column) => sql.id(column),
}

export const postgresSnapshot: SnapshotDialect = {
  async listTables(db) {
    // A month's partition is read and written through its partitioned table, not as a table of its own.
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables t
      where table_schema = current_schema() and table_type = 'BASE TABLE'
        and not exists (select 1 from pg_class c where c.oid = to_regclass(quote_ident(t.table_schema) || '.' || quote_ident(t.table_name)) and c.relispartition)
      order by table_name`.execute(db)
    return rows.map((r) => r.name)
  },
  async describeTable(db, table) {
    const columns = await sql<{ name: string }>`
      select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)
    const keys = await sql<{ name: string; kind: string; target: string | null }>`
      select kcu.column_name as name, tc.constraint_type as kind, ccu.table_name as target
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name
      left join information_schema.constraint_column_usage ccu
        on tc.constraint_type = 'FOREIGN KEY' and ccu.constraint_schema = tc.constraint_schema and ccu.constraint_name = tc.constraint_name
      where tc.table_schema = current_schema() and tc.table_name = ${table}
        and tc.constraint_type in ('PRIMARY KEY', 'FOREIGN KEY')
      order by kcu.ordinal_position`.execute(db)
    const primaryKey = keys.rows.filter((r) => r.kind === 'PRIMARY KEY').map((r) => r.name)
    return {
      columns: columns.rows.map((r) => r.name),
      primaryKey: primaryKey.length ? primaryKey : await partitionedRowKey(db, table, columns.rows),
      references: [...new Set(keys.rows.flatMap((r) => (r.kind === 'FOREIGN KEY' && r.target ? [r.target] : [])))],
    }
  },
  // One snapshot for every statement of the transaction; read only, so it never blocks writers.
  readSnapshot: (db, work) => db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work),
  // The text form is exact for every type (shortest round-trip floats, bigint digits).
  snapshotColumn: (column) => sql`${sql.id(column)}::text as ${sql.id(column)}`,
}

/**
 * A table partitioned by month has no primary key (its key may be null, docs/scaling.md): its
 * rows are paged by `id`, unique by its generator, instead of by offset over every column.
 */
async function partitionedRowKey(db: Db, table: string, columns: readonly { name: string }[]): Promise<string[]> {
  if (!columns.some((c) => c.name === 'id')) return []
  const { rows } = await sql<{ kind: string }>`select relkind::text as kind from pg_class where oid = to_regclass(${table})`.execute(db)
  return rows[0]?.kind === 'p' ? ['id'] : []
}
