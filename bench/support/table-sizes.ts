import pg from 'pg'
import { POSTGRES_URL, type BenchDatabase } from './database.js'
import { log } from './report.js'

/** A table's rows and its size on disk, heap and indexes apart (Postgres). */
export interface TableSize {
  readonly table: string
  readonly rows: number
  readonly heapBytes: number
  readonly indexBytes: number
}

/**
 * The rows and bytes of some tables of a bench database, for capacity planning
 * (docs/scaling.md): the bytes a row costs on disk, heap and indexes, after VACUUM ANALYZE
 * settled the visibility map and statistics. Null on SQLite.
 */
export async function tableSizes(db: BenchDatabase, tables: readonly string[]): Promise<TableSize[] | null> {
  if (db.kind !== 'postgres') return null
  const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${db.schema}` })
  await client.connect()
  try {
    const out: TableSize[] = []
    for (const table of tables) {
      await client.query(`vacuum analyze "${table}"`)
      const { rows } = await client.query<{ rows: string; heap: string; indexes: string }>(
        // A partitioned table (calls and transactions, migration 0058) holds nothing itself: its partitions' sizes are summed.
        `select (select count(*) from "${table}") as rows, sum(pg_table_size(t.relid)) as heap, sum(pg_indexes_size(t.relid)) as indexes
         from pg_partition_tree('"${table}"') t where t.isleaf`,
      )
      const size = { table, rows: Number(rows[0].rows), heapBytes: Number(rows[0].heap), indexBytes: Number(rows[0].indexes) }
      out.push(size)
      const per = (bytes: number) => (size.rows ? Math.round(bytes / size.rows) : 0)
      log(`size of ${table}: ${size.rows.toLocaleString('en-GB')} rows, heap ${(size.heapBytes / 2 ** 20).toFixed(0)} MB (${per(size.heapBytes)} B/row), indexes ${(size.indexBytes / 2 ** 20).toFixed(0)} MB (${per(size.indexBytes)} B/row)`)
    }
    return out
  } finally {
    await client.end()
  }
}
