import type pg from 'pg'

/** The table a relation of a plan belongs to: a month's partition (`calls_2026_01`) or the default one (`calls_default`) as its partitioned table. */
export const tableOf = (relation: string): string => relation.replace(/_(default|\d{4}_\d{2})$/, '')

/** The index of the partitioned table that a partition's index was made for (itself for an index of a plain table). */
export async function parentIndexOf(client: pg.Client, index: string): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `select p.relname as name from pg_inherits i join pg_class p on p.oid = i.inhparent where i.inhrelid = to_regclass(quote_ident($1))`,
    [index],
  )
  return rows[0]?.name ?? index
}
