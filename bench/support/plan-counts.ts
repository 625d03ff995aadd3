import pg from 'pg'

/**
 * How often Postgres planned the statements that name given tables, for bench/months.ts
 * `--plans`: the driver's `query` is patched when this module loads (before any connection
 * opens, as tests/support/sent-statements.ts does), counting the statements each connection sent
 * unnamed (each planned at every execution); its prepared statements' `custom_plans` (each a
 * planning) and `generic_plans` (executions of the one generic plan) are read from
 * `pg_prepared_statements` on the connection itself.
 */
interface Seen {
  unnamed: number
  /** What the last `planCounts` read, so that the next reports what came since. */
  custom: number
  generic: number
  genericPlans: number
}
const clients = new Map<pg.Client, Seen>()
let pattern: RegExp | null = null
const driverQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const seen = clients.get(this) ?? { unnamed: 0, custom: 0, generic: 0, genericPlans: 0 }
  clients.set(this, seen)
  if (pattern && typeof config === 'string' && /^\s*(select|insert|update|delete|with)\b/i.test(config) && pattern.test(config)) seen.unnamed++
  return (driverQuery as Function).call(this, config, ...rest)
} as typeof driverQuery

export interface PlanCounts {
  /** Executions sent unnamed (each planned). */
  unnamed: number
  /** Prepared statements' executions with a plan of their own (each planned). */
  custom: number
  /** Prepared statements' executions with their generic plan. */
  generic: number
  /** Generic plans made (one a statement and connection). */
  genericPlans: number
}

/** Counts the statements naming any of `tables` (quoted, as Kysely writes them). */
export function countPlans(tables: readonly string[]): void {
  pattern = new RegExp(tables.map((t) => `"${t}"`).join('|'))
}

/**
 * The counts of the open connections named `application` since the last call (or since they
 * opened); call it while they are idle. Closed connections are forgotten.
 */
export async function planCounts(application: string): Promise<PlanCounts> {
  const counts: PlanCounts = { unnamed: 0, custom: 0, generic: 0, genericPlans: 0 }
  for (const [client, seen] of clients) {
    if ((client as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name !== application) continue
    const result = await (driverQuery as Function)
      .call(client, 'select statement, generic_plans::int as g, custom_plans::int as c from pg_prepared_statements')
      .catch(() => null)
    if (!result) {
      clients.delete(client)
      continue
    }
    const now = { custom: 0, generic: 0, genericPlans: 0 }
    for (const row of result.rows as { statement: string; g: number; c: number }[]) {
      if (!pattern?.test(row.statement)) continue
      if (process.env.PLAN_COUNTS_VERBOSE) console.log(`  ${application}: ${row.c} custom, ${row.g} generic: ${row.statement.replace(/\s+/g, ' ').slice(0, 160)}`)
      now.custom += row.c
      now.generic += row.g
      if (row.g > 0) now.genericPlans++
    }
    counts.unnamed += seen.unnamed
    counts.custom += now.custom - seen.custom
    counts.generic += now.generic - seen.generic
    counts.genericPlans += now.genericPlans - seen.genericPlans
    Object.assign(seen, now, { unnamed: 0 })
  }
  return counts
}
