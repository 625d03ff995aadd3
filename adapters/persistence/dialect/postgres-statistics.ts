import { sql, type Kysely } from 'kysely'
import type { StatisticsDialect } from './dialect.js'

/**
 * The planner's view of a table from the catalogue: `reltuples` is what the last `ANALYZE`
 * counted (-1 for a table never analysed) and `n_mod_since_analyze` the rows any connection has
 * inserted, updated or deleted since, as far as the statistics collector has heard (a backend
 * reports at most once a second, so the newest writes may not be in it yet).
 */
export const postgresStatistics: StatisticsDialect = {
  async tableCounts(db: Kysely<any>, table: string) {
    const { rows } = await sql<{ known: number | string; modified: number | string | null }>`
      select greatest(c.reltuples, 0)::float8 as known, s.n_mod_since_analyze as modified
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.oid = to_regclass(${table})`.execute(db)
    return { known: Number(rows[0]?.known ?? 0), modified: Number(rows[0]?.modified ?? 0) }
  },
  async analyze(db: Kysely<any>, table: string) {
    await sql`analyze ${sql.id(table)}`.execute(db)
  },
}
