import { CompiledQuery, sql } from 'kysely'
import { writeRows } from './bulk-rows.js'
import type { DatabaseDialect } from './dialect.js'
import { postgresStatistics } from './postgres-statistics.js'
import { postgresWireJson } from './postgres-wire-json.js'

/** A bigint's canonical decimal text: no sign on zero, no leading zeros. */
const CANONICAL_ID = /^(0|-?[1-9]\d{0,17})$/

export const postgresDialect: DatabaseDialect = {
  name: 'postgres',
  types: { real: 'double precision', bigint: 'bigint' },
  addIdColumn: (t) => t.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
  idRefType: 'bigint',
  // node-postgres has no BigInt serialiser; decimal text is exact.
  placeholder: (index) => `$${index}`,
  statistics: postgresStatistics,
  columnarInsertSql(table, columns, types, doNothingOn) {
    const arrays = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')
    const conflict = doNothingOn ? ` on conflict (${quoteIdent(doNothingOn)}) do nothing` : ''
    return `insert into ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) select * from unnest(${arrays})${conflict}`
  },
  // The array's text form, written here: node-postgres escapes each element with two regex
  // replacements, a tenth of an import's CPU profile (bench/rating.ts).
  arrayParameter(values) {
    const parts = new Array<string>(values.length)
    for (let i = 0; i < values.length; i++) {
      const v = values[i]
      if (v === null || v === undefined) parts[i] = 'NULL'
      else if (typeof v === 'number' || typeof v === 'bigint') parts[i] = String(v)
      else {
        const s = String(v)
        parts[i] = s.includes('"') || s.includes('\\') ? `"${s.replace(/["\\]/g, '\\$&')}"` : `"${s}"`
      }
    }
    return `{${parts.join(',')}}`
  },
  inList(column, values) {
    return sql<boolean>`${sql.ref(column)} = any(${this.arrayParameter(values)})`
  },
  widenPageCache: async () => async () => {},
  encodeBigint: (v) => v.toString(),
  // An ID already in canonical form is the text pg would send; anything else goes through BigInt as before.
  encodeId: (id) => (CANONICAL_ID.test(id) ? id : BigInt(id).toString()),
  decodeBigint: (v) => BigInt(v as string | number),
  uniqueViolation(error) {
    const e = error as { code?: string; table?: string; detail?: string; constraint?: string }
    if (e?.code !== '23505') return null
    // detail: 'Key ("accountNumber")=(A1) already exists.'
    const cols = /^Key \((.*?)\)=/.exec(e.detail ?? '')?.[1] ?? ''
    return { table: e.table, columns: cols.split(',').map((c) => c.trim().replace(/^"|"$/g, '')).filter(Boolean) }
  },
  rowLocks: true,
  connectionsBesideTransactions: true,
  async lockKey(trx, key) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
  },
  async listTables(db) {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)
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
    return {
      columns: columns.rows.map((r) => r.name),
      primaryKey: keys.rows.filter((r) => r.kind === 'PRIMARY KEY').map((r) => r.name),
      references: [...new Set(keys.rows.flatMap((r) => (r.kind === 'FOREIGN KEY' && r.target ? [r.target] : [])))],
    }
  },
  // One snapshot for every statement of the transaction; read only, so it never blocks writers.
  readSnapshot: (db, work) => db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work),
  // The text form is exact for every type (shortest round-trip floats, bigint digits).
  snapshotColumn: (column) => sql`${sql.id(column)}::text as ${sql.id(column)}`,
  async bulkInsert(db, table, columns, rows, options = {}) {
    const names = columns.map((c) => quoteIdent(c.name)).join(', ')
    const arrays = columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')
    const text = `insert into ${quoteIdent(table)} (${names}) select * from unnest(${arrays})${options.onConflict ? ` ${options.onConflict}` : ''}`
    for (let i = 0; i < rows.length; i += BULK_ROWS) {
      const count = Math.min(BULK_ROWS, rows.length - i)
      const width = columns.length
      const values = columns.map(() => new Array<unknown>(count))
      const row: unknown[] = new Array(width)
      for (let r = 0; r < count; r++) {
        writeRows(rows, i + r, i + r + 1, width, row)
        for (let c = 0; c < width; c++) values[c][r] = row[c]
      }
      await db.executeQuery(CompiledQuery.raw(text, values))
    }
  },
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
  wireJson: postgresWireJson('text'),
  packedRead: () => null,
}

/** Postgres on a pool made with `jsonAsBytes`: wire reads come as bytes (see postgres-wire-json.ts). */
export const postgresBytesDialect: DatabaseDialect = { ...postgresDialect, wireJson: postgresWireJson('bytes') }

/** Rows per bulk statement: a few MB of arrays at most. */
const BULK_ROWS = 10_000

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`
