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
  /**
   * The last ID each table's `id` generator gave out, by table; tables whose generator gave none
   * are left out. A disaster-recovery archive keeps them: the IDs of deleted rows are not in it.
   */
  readIdCounters(db: Db): Promise<Map<string, bigint>>
  /**
   * After a restore loaded rows with their IDs, moves the table's `id` generator past them and
   * past `lastId`, the last ID it gave out in the archived database (0 when the archive does not
   * say), so that no ID is given out twice.
   */
  resetIdSequence(db: Db, table: string, lastId: bigint): Promise<void>
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
  async readIdCounters(db) {
    const { rows } = await sql<{ name: string; seq: number | bigint }>`
      select name, seq from sqlite_sequence where seq > 0
        and exists (select 1 from sqlite_master where type = 'table' and name = sqlite_sequence.name)`.execute(db)
    return new Map(rows.map((r) => [r.name, BigInt(r.seq)]))
  },
  // Rows inserted with their IDs have moved AUTOINCREMENT's counter to the highest of them
  // already; a table restored empty has no counter row yet.
  async resetIdSequence(db, table, lastId) {
    if (lastId <= 0n) return
    const moved = await sql`update sqlite_sequence set seq = max(seq, ${lastId}) where name = ${table} returning seq`.execute(db)
    if (moved.rows.length === 0) await sql`insert into sqlite_sequence (name, seq) values (${table}, ${lastId})`.execute(db)
  },
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
  // A sequence is read outside any snapshot: inside an archive's transaction it says at least
  // the highest ID the snapshot holds, which is all a restore needs.
  async readIdCounters(db) {
    // Materialized: the planner would otherwise ask pg_get_serial_sequence about catalog tables without an `id`, which fails.
    const { rows } = await sql<{ name: string; seq: string | null }>`
      with t as materialized (
        select c.relname as name from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'id' and not a.attisdropped
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition)
      select name, pg_get_serial_sequence(quote_ident(name), 'id') as seq from t order by name`.execute(db)
    const counters = new Map<string, bigint>()
    for (const { name, seq } of rows) {
      if (!seq) continue
      // Until its first nextval (and after a restore's setval(…, false)) last_value is the next ID, not one given out.
      const read = await sql<{ last: string }>`select (last_value - case when is_called then 0 else 1 end)::text as last from ${sql.raw(seq)}`.execute(db)
      const last = BigInt(read.rows[0].last)
      if (last > 0n) counters.set(name, last)
    }
    return counters
  },
  async resetIdSequence(db, table, lastId) {
    const { rows } = await sql<{ seq: string | null }>`select pg_get_serial_sequence(${quoteIdent(table)}, 'id') as seq`.execute(db)
    const seq = rows[0]?.seq
    if (!seq) return
    const highest = sql`greatest(coalesce((select max(id) from ${sql.id(table)}), 0), ${lastId.toString()}::bigint)`
    await sql`select setval(${seq}::regclass, ${highest} + 1, false)`.execute(db)
  },
}
