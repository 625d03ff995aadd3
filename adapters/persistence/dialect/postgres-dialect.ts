import { sql, type Kysely } from 'kysely'
import type { DatabaseDialect } from './dialect.js'

export const postgresDialect: DatabaseDialect = {
  name: 'postgres',
  types: { real: 'double precision', bigint: 'bigint' },
  addIdColumn: (t) => t.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity()),
  idRefType: 'bigint',
  // node-postgres has no BigInt serialiser; decimal text is exact.
  encodeBigint: (v) => v.toString(),
  decodeBigint: (v) => BigInt(v as string | number),
  uniqueViolation(error) {
    const e = error as { code?: string; table?: string; detail?: string; constraint?: string }
    if (e?.code !== '23505') return null
    // detail: 'Key ("accountNumber")=(A1) already exists.'
    const cols = /^Key \((.*?)\)=/.exec(e.detail ?? '')?.[1] ?? ''
    return { table: e.table, columns: cols.split(',').map((c) => c.trim().replace(/^"|"$/g, '')).filter(Boolean) }
  },
  rowLocks: true,
  async lockKey(trx, key) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
  },
}
