import { sql } from 'kysely'
import type { Db } from '../schema/tables.js'
import { quoteIdent } from './quote.js'

/** The `id` generator of a table, for rows inserted with their IDs (bulk inserts, restores). */
export interface IdSequence {
  /**
   * Takes `count` new IDs of the table's `id` generator, ascending, for rows a caller inserts
   * with their IDs (rows that must be referred to before they exist). No other writer gets them.
   */
  reserveIds(db: Db, table: string, count: number): Promise<bigint[]>
  /** After a restore loaded rows with their IDs, moves the table's `id` generator past them (SQLite's AUTOINCREMENT follows by itself). */
  resetIdSequence(db: Db, table: string): Promise<void>
}

export const sqliteIdSequence: IdSequence = {
  // AUTOINCREMENT keeps the highest ID in sqlite_sequence; moving it takes the write lock in the
  // same statement, so no other connection can insert between the read and the reservation.
  async reserveIds(db, table, count) {
    if (count === 0) return []
    const moved = await sql<{ seq: number | bigint }>`update sqlite_sequence set seq = seq + ${count} where name = ${table} returning seq`.execute(db)
    let last = moved.rows[0] ? BigInt(moved.rows[0].seq) : null
    if (last === null) {
      const highest = await sql<{ top: number | bigint | null }>`select max(id) as top from ${sql.id(table)}`.execute(db)
      last = BigInt(highest.rows[0]?.top ?? 0) + BigInt(count)
      await sql`insert into sqlite_sequence (name, seq) values (${table}, ${last})`.execute(db)
    }
    return Array.from({ length: count }, (_, i) => last! - BigInt(count - 1 - i))
  },
  resetIdSequence: async () => {},
}

export const postgresIdSequence: IdSequence = {
  async reserveIds(db, table, count) {
    if (count === 0) return []
    // The sequence looked up once, not once a row: inlined, Postgres called pg_get_serial_sequence
    // for each ID, most of what reserving IDs cost a billing run (bench/billing-run.ts).
    const { rows } = await sql<{ id: string }>`
      with s as materialized (select pg_get_serial_sequence(${quoteIdent(table)}, 'id')::regclass as seq)
      select nextval(s.seq)::text as id from s, generate_series(1, ${count})`.execute(db)
    return rows.map((r) => BigInt(r.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  },
  async resetIdSequence(db, table) {
    const { rows } = await sql<{ seq: string | null }>`select pg_get_serial_sequence(${quoteIdent(table)}, 'id') as seq`.execute(db)
    const seq = rows[0]?.seq
    if (!seq) return
    await sql`select setval(${seq}::regclass, coalesce((select max(id) from ${sql.id(table)}), 0) + 1, false)`.execute(db)
  },
}
