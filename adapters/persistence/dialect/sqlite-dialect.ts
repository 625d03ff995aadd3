import { CompiledQuery, sql, type Kysely } from 'kysely'
import type { BulkColumn, BulkOptions, DatabaseDialect } from './dialect.js'
import { writeRows } from './bulk-rows.js'
import { sqlitePackedRead } from './sqlite-packed-read.js'
import { sqliteWireJson } from './sqlite-wire-json.js'

export const sqliteDialect: DatabaseDialect = {
  name: 'sqlite',
  types: { real: 'real', bigint: 'integer' },
  addIdColumn: (t) => t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  idRefType: 'integer',
  placeholder: () => '?',
  statistics: null,
  columnarInsertSql: () => null,
  arrayParameter: (values) => values,
  inList: (column, values) => sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`,
  async widenPageCache(db, mib) {
    const before = Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size ?? -2000)
    await sql.raw(`pragma cache_size = ${-Math.round(mib * 1024)}`).execute(db)
    return async () => void (await sql.raw(`pragma cache_size = ${before}`).execute(db))
  },
  encodeBigint: (v) => v,
  // A number is exact up to 15 digits, and an INTEGER column stores it as the integer it is.
  encodeId: (id) => (SHORT_DECIMAL.test(id) ? Number(id) : BigInt(id)),
  decodeBigint: (v) => BigInt(v as number | bigint | string),
  uniqueViolation(error) {
    const e = error as { code?: string; message?: string }
    if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null
    // "UNIQUE constraint failed: customers.accountNumber, customers.x"
    const list = /failed: (.*)$/.exec(e.message ?? '')?.[1] ?? ''
    const parts = list.split(',').map((s) => s.trim().split('.'))
    return { table: parts[0]?.[0], columns: parts.map((p) => p[1]).filter(Boolean) }
  },
  rowLocks: false,
  connectionsBesideTransactions: false,
  lockKey: async (_trx: Kysely<any>, _key: string) => {},
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
  // database as of the first one: one consistent snapshot.
  readSnapshot: (db, work) => db.transaction().execute(work),
  snapshotColumn: (column) => sql.id(column),
  async bulkInsert(db, table, columns, rows, options = {}) {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)))
    const width = columns.length
    for (let i = 0; i < rows.length; i += perStatement) {
      const count = Math.min(perStatement, rows.length - i)
      // Filled by index into an array of its final length: pushing 30,000 values grew and copied
      // it a dozen times per statement, the largest allocation of a billing run.
      const parameters: unknown[] = new Array(count * width)
      writeRows(rows, i, i + count, width, parameters)
      await db.executeQuery(CompiledQuery.raw(valuesSql(table, columns, count, options), parameters))
    }
  },
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
  wireJson: sqliteWireJson,
  packedRead: sqlitePackedRead,
}

/** Decimal integers of up to 15 digits: exact as numbers (BigInt would also take hex and spaces, and still does beyond this). */
const SHORT_DECIMAL = /^-?\d{1,15}$/

/** Parameters in one statement, under SQLite's limit (32,766). */
const MAX_PARAMETERS = 30_000
const statements = new Map<string, string>()

/** The multi-row INSERT for `count` rows, written once per shape: full chunks repeat one text, which the statement cache keeps prepared. */
function valuesSql(table: string, columns: readonly BulkColumn[], count: number, options: BulkOptions): string {
  const key = `${table}|${columns.map((c) => c.name).join(',')}|${count}|${options.onConflict ?? ''}`
  let text = statements.get(key)
  if (!text) {
    const tuple = `(${columns.map(() => '?').join(', ')})`
    text = `insert into ${quote(table)} (${columns.map((c) => quote(c.name)).join(', ')}) values ${Array(count).fill(tuple).join(', ')}${options.onConflict ? ` ${options.onConflict}` : ''}`
    if (statements.size > 64) statements.clear()
    statements.set(key, text)
  }
  return text
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`
