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
  const tables = await dialect.listTables(db)
  for (const table of tables) {
    if (skip.includes(table) || table === 'unnumbered_events') continue
    const { columns } = await dialect.describeTable(db, table)
    const stamp = columns.includes('updatedStamp') ? sql`max(${sql.id('updatedStamp')})` : sql`null`
    // Events waiting for their numbers on Postgres (dialect/event-numbers.ts) are events all the
    // same: a read that numbers them moves rows between the two tables and changes nothing.
    const from =
      table === 'events' && tables.includes('unnumbered_events')
        ? sql`(select ${sql.id('updatedStamp')} from ${sql.id('events')} union all select ${sql.id('updatedStamp')} from ${sql.id('unnumbered_events')}) as e`
        : sql.id(table)
    parts.push(sql`select ${sql.lit(table)} as t, count(*) as n, ${stamp} as u from ${from}`)
  }
  const query = sql.join(parts, sql` union all `)
  return async () => {
    const { rows } = await sql<{ t: string; n: unknown; u: unknown }>`${query}`.execute(db)
    return rows.map((r) => `${r.t}:${r.n}:${r.u ?? ''}`).sort().join(' ')
  }
}
