import pg from 'pg'

/**
 * The statements sent to Postgres while `work` runs, with their parameters, by text (the first
 * parameters seen). Caught in the driver's `Client.prototype.query`, patched when this module is
 * loaded, before any connection opens: the pool binds each connection's `query` as it connects
 * (prepared-statements.ts). Used by the plan tests, which explain what a run or a request sent.
 */
let catching: Map<string, unknown[]> | null = null
const driverQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, ...rest: unknown[]) {
  const text = typeof config === 'string' ? config : (config as { text?: string })?.text
  const params = Array.isArray(values) ? values : ((config as { values?: unknown[] })?.values ?? [])
  if (catching && text && !catching.has(text)) catching.set(text, params)
  return (driverQuery as Function).call(this, config, values, ...rest)
} as typeof driverQuery

export async function statementsOf(work: () => Promise<unknown>): Promise<Map<string, unknown[]>> {
  const seen = (catching = new Map())
  try {
    await work()
  } finally {
    catching = null
  }
  return seen
}
