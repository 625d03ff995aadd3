import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import { POSTGRES_URL, type BenchDatabase } from './database.js'

/** A column of a seeded table, with its Postgres type (for unnest). */
export interface BulkColumn {
  readonly name: string
  readonly type: 'text' | 'bigint' | 'integer' | 'double precision'
}

/**
 * Fast seeding straight into the tables (not through the API): SQLite runs one prepared
 * multi-row INSERT in large transactions; Postgres sends columns as arrays to
 * `INSERT … SELECT FROM unnest(…)`, one round trip per chunk.
 */
export interface BulkWriter {
  insert(table: string, columns: readonly BulkColumn[], rows: Iterable<unknown[]>): Promise<number>
  /** Runs one statement (SQL written for both databases). */
  exec(statement: string): Promise<void>
  /** Brings statistics and ID generators up to date after seeding. */
  finish(tables: readonly string[]): Promise<void>
  close(): Promise<void>
}

export function openBulkWriter(target: BenchDatabase): BulkWriter {
  return target.kind === 'sqlite' ? sqliteWriter(target.file!) : postgresWriter(target.schema!)
}

function sqliteWriter(file: string): BulkWriter {
  const db = new SqliteDatabase(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  return {
    async insert(table, columns, rows) {
      const perStatement = Math.max(1, Math.floor(30_000 / columns.length))
      const tuple = `(${columns.map(() => '?').join(',')})`
      const head = `insert into "${table}" (${columns.map((c) => `"${c.name}"`).join(',')}) values `
      const full = db.prepare(head + Array(perStatement).fill(tuple).join(','))
      let count = 0
      let buffer: unknown[] = []
      let inChunk = 0
      const flush = () => {
        if (inChunk === perStatement) full.run(buffer)
        else if (inChunk > 0) db.prepare(head + Array(inChunk).fill(tuple).join(',')).run(buffer)
        buffer = []
        inChunk = 0
      }
      db.exec('begin')
      for (const row of rows) {
        for (const v of row) buffer.push(v)
        inChunk++
        count++
        if (inChunk === perStatement) flush()
        if (count % 200_000 === 0) {
          db.exec('commit')
          db.exec('begin')
        }
      }
      flush()
      db.exec('commit')
      return count
    },
    async exec(statement) {
      db.exec(statement)
    },
    async finish() {
      db.exec('analyze')
      db.pragma('wal_checkpoint(TRUNCATE)')
    },
    async close() {
      db.close()
    },
  }
}

function postgresWriter(schema: string): BulkWriter {
  const client = new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${schema}` })
  const connected = client.connect()
  return {
    async insert(table, columns, rows) {
      await connected
      const chunk = 20_000
      const names = columns.map((c) => `"${c.name}"`).join(',')
      const text = `insert into "${table}" (${names}) select * from unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(',')})`
      let arrays: unknown[][] = columns.map(() => [])
      let count = 0
      let inChunk = 0
      const flush = async () => {
        if (inChunk) await client.query(text, arrays.map((a, i) => (columns[i].type === 'bigint' ? a.map((v) => (v === null ? null : String(v))) : a)))
        arrays = columns.map(() => [])
        inChunk = 0
      }
      await client.query('begin')
      for (const row of rows) {
        for (let i = 0; i < row.length; i++) arrays[i].push(row[i])
        inChunk++
        count++
        if (inChunk === chunk) await flush()
      }
      await flush()
      await client.query('commit')
      return count
    },
    async exec(statement) {
      await connected
      await client.query(statement)
    },
    async finish(tables) {
      await connected
      for (const t of tables) {
        await client.query(`select setval(pg_get_serial_sequence('"${t}"', 'id'), coalesce((select max(id) from "${t}"), 0) + 1, false)`)
        await client.query(`analyze "${t}"`)
      }
    },
    async close() {
      await connected
      await client.end()
    },
  }
}
