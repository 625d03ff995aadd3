import type { Kysely } from 'kysely'
import type { DatabaseDialect } from './dialect.js'

export const sqliteDialect: DatabaseDialect = {
  name: 'sqlite',
  types: { real: 'real', bigint: 'integer' },
  addIdColumn: (t) => t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
  idRefType: 'integer',
  encodeBigint: (v) => v,
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
  lockKey: async (_trx: Kysely<any>, _key: string) => {},
}
