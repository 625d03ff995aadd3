import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import { monthBounds, monthPartitionName, type MonthPartitioning, type PartitionedUniqueKey } from './partitions.js'
import { quoteIdent } from './quote.js'

interface IndexRow {
  readonly name: string
  readonly unique: boolean
  readonly primary: boolean
  readonly definition: string
  readonly columns: string[]
}

/**
 * Makes a plain table partitioned by month of its key (`PartitionsDialect.partitionByMonth`):
 * the table is renamed aside, made again partitioned with the same columns, defaults and
 * identity, given a partition per month of its rows and a default one, filled, and its indexes
 * made again on the partitioned table (each partition gets its own) once the rows are in, which
 * is faster than keeping them up row by row. Foreign keys to or from the table are refused: a
 * partitioned table's rows are referred to by plain columns (docs/scaling.md).
 */
export async function partitionTableByMonth(db: AnyDb, { table, key, uniqueKeys }: MonthPartitioning): Promise<void> {
  const old = `${table}_unpartitioned`
  await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(db)
  const foreign = await sql<{ name: string }>`
    select conname as name from pg_constraint where contype = 'f' and (conrelid = to_regclass(${old}) or confrelid = to_regclass(${old}))`.execute(db)
  if (foreign.rows.length) throw new Error(`${table} has foreign keys (${foreign.rows.map((r) => r.name).join(', ')}): partitioning keeps references as plain columns`)
  const indexes = await indexesOf(db, old)
  const made = indexes.map((index) => remade(index, table, key.column, uniqueKeys))

  await sql`create table ${sql.table(table)} (like ${sql.table(old)} including defaults including identity including storage) partition by range (${sql.ref(key.column)})`.execute(db)
  await sql`create table ${sql.table(`${table}_default`)} partition of ${sql.table(table)} default`.execute(db)
  // A partition for each month the rows hold; rows whose key is no date (or null) stay in the default one.
  const present = await sql<{ month: string }>`
    select distinct left(${sql.ref(key.column)}, 7) as month from ${sql.table(old)} where ${sql.ref(key.column)} ~ '^[0-9]{4}-[0-9]{2}' order by 1`.execute(db)
  for (const { month } of present.rows) {
    const { from, to } = monthBounds(month, key)
    await sql`create table ${sql.table(monthPartitionName(table, month))} partition of ${sql.table(table)} for values from (${from}) to (${to})`.execute(db)
  }
  await sql`insert into ${sql.table(table)} select * from ${sql.table(old)}`.execute(db)

  // IDs go on from where the old generator was, not from the highest ID left (a row deleted at
  // the end keeps its ID used).
  const sequences = await sql<{ old: string | null; made: string | null }>`
    select pg_get_serial_sequence(${quoteIdent(old)}, 'id') as old, pg_get_serial_sequence(${quoteIdent(table)}, 'id') as made`.execute(db)
  const { old: oldSequence, made: madeSequence } = sequences.rows[0]
  if (oldSequence && madeSequence) {
    const state = await sql<{ last: string; called: boolean }>`select last_value::text as last, is_called as called from ${sql.raw(oldSequence)}`.execute(db)
    await sql`select setval(${madeSequence}::regclass, ${state.rows[0].last}::bigint, ${state.rows[0].called})`.execute(db)
  }
  await sql`drop table ${sql.table(old)}`.execute(db)
  if (oldSequence && madeSequence) await sql`alter sequence ${sql.raw(madeSequence)} rename to ${sql.id(unqualified(oldSequence))}`.execute(db)
  for (const statement of made) await sql.raw(statement).execute(db)
  // Autovacuum analyses partitions, never the partitioned table: its own statistics are taken here.
  await sql`analyze ${sql.table(table)}`.execute(db)
}

async function indexesOf(db: AnyDb, table: string): Promise<IndexRow[]> {
  const { rows } = await sql<IndexRow>`
    select c.relname as name, i.indisunique as unique, i.indisprimary as primary, pg_get_indexdef(i.indexrelid) as definition,
      array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n) as columns
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = to_regclass(${table}) order by c.relname`.execute(db)
  return rows
}

/** The statement that makes an index of the old table again on the partitioned one. */
function remade(index: IndexRow, table: string, key: string, uniqueKeys: Readonly<Record<string, PartitionedUniqueKey>>): string {
  const on = ` ON ${quoteIdent(table)} USING `
  // IDs stay unique by their generator. No primary key: its columns would have to hold the key,
  // which may be null (payments have no dateFrom). A unique (id, key) index would check nothing
  // an ID's generator does not, at 73 B more a call than this one (bench/row-sizes.ts).
  if (index.primary) return `CREATE INDEX ${quoteIdent(`${table}_id_idx`)} ON ${quoteIdent(table)} (id)`
  if (!index.unique || index.columns.includes(key)) return index.definition.replace(/ ON .*? USING /, on)
  const given = uniqueKeys[index.name]
  if (!given) throw new Error(`unique index ${index.name} of ${table} lacks ${key}: say how to make it again`)
  if (!given.columns.includes(key)) throw new Error(`unique index ${index.name} of ${table} must hold ${key}`)
  const columns = given.columns.map(quoteIdent).join(', ')
  return given.presentOnly
    ? `CREATE UNIQUE INDEX ${quoteIdent(index.name)} ON ${quoteIdent(table)} (${columns}) NULLS NOT DISTINCT WHERE ${quoteIdent(given.presentOnly)} IS NOT NULL`
    : `CREATE UNIQUE INDEX ${quoteIdent(index.name)} ON ${quoteIdent(table)} (${columns})`
}

const unqualified = (name: string) => name.slice(name.lastIndexOf('.') + 1).replace(/^"|"$/g, '')
