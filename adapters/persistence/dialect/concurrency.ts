import { sql } from 'kysely'
import type { Db } from '../schema/tables.js'

/** How writers are kept apart, and what a unique-constraint violation looks like. */
export interface ConcurrencyDialect {
  /** Whether SELECT … FOR UPDATE exists (SQLite serialises writers instead). */
  readonly rowLocks: boolean
  /** Serialises a critical section across processes: a Postgres advisory lock inside the transaction; SQLite's single writer already does. */
  lockKey(trx: Db, key: string): Promise<void>
  /** The columns named by a unique-constraint violation, or null when the error is not one. */
  uniqueViolation(error: unknown): { table?: string; columns: string[] } | null
  /**
   * How many pages of a report are read at once (reports/read-pages.ts). Postgres: two, each on
   * its own connection, so its server works on both cores while this process writes a page out.
   * SQLite: one, on the connection this process runs (a second runs nothing meanwhile).
   */
  readonly pagesAtOnce: number
}

export const sqliteConcurrency: ConcurrencyDialect = {
  rowLocks: false,
  pagesAtOnce: 1,
  lockKey: async () => {},
  uniqueViolation(error) {
    const e = error as { code?: string; message?: string }
    if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null
    // "UNIQUE constraint failed: customers.accountNumber, customers.x"
    const list = /failed: (.*)$/.exec(e.message ?? '')?.[1] ?? ''
    const parts = list.split(',').map((s) => s.trim().split('.'))
    return { table: parts[0]?.[0], columns: parts.map((p) => p[1]).filter(Boolean) }
  },
}

export const postgresConcurrency: ConcurrencyDialect = {
  rowLocks: true,
  pagesAtOnce: 2,
  async lockKey(trx, key) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
  },
  uniqueViolation(error) {
    const e = error as { code?: string; table?: string; detail?: string; constraint?: string }
    if (e?.code !== '23505') return null
    // detail: 'Key ("accountNumber")=(A1) already exists.'
    const cols = /^Key \((.*?)\)=/.exec(e.detail ?? '')?.[1] ?? ''
    return { table: e.table, columns: cols.split(',').map((c) => c.trim().replace(/^"|"$/g, '')).filter(Boolean) }
  },
}
