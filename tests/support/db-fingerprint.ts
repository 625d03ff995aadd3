import { sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'

/**
 * A cheap fingerprint of the whole database: the row count of every table and, where the
 * table has one, its latest `updatedStamp`, in one query. The idempotency table is left out:
 * it keeps the answers it replays, rejections included, by design.
 */
export async function fingerprinter(database: Database, skip: readonly string[] = ['idempotency_keys']): Promise<() => Promise<string>> {
  const { db, dialect } = database
  const parts = []
  for (const table of await dialect.listTables(db)) {
    if (skip.includes(table)) continue
    const { columns } = await dialect.describeTable(db, table)
    const stamp = columns.includes('updatedStamp') ? sql`max(${sql.id('updatedStamp')})` : sql`null`
    parts.push(sql`select ${sql.lit(table)} as t, count(*) as n, ${stamp} as u from ${sql.id(table)}`)
  }
  const query = sql.join(parts, sql` union all `)
  return async () => {
    const { rows } = await sql<{ t: string; n: unknown; u: unknown }>`${query}`.execute(db)
    return rows.map((r) => `${r.t}:${r.n}:${r.u ?? ''}`).sort().join(' ')
  }
}
