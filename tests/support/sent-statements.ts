import pg from 'pg'

/**
 * The statements sent to Postgres while `work` runs, with their parameters, by text (the first
 * parameters seen). Caught in the driver's `Client.prototype.query`, patched when this module is
 * loaded, before any connection opens: the pool binds each connection's `query` as it connects
 * (prepared-statements.ts). Used by the plan tests, which explain what a run or a request sent.
 */
let catching: Map<string, unknown[]> | null = null
/** Every statement's text, repeats included, in the order sent (`sentInOrder`). */
let listing: string[] | null = null
const driverQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, ...rest: unknown[]) {
  const text = typeof config === 'string' ? config : (config as { text?: string })?.text
  const params = Array.isArray(values) ? values : ((config as { values?: unknown[] })?.values ?? [])
  if (catching && text && !catching.has(text)) catching.set(text, params)
  if (listing && text) listing.push(text)
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

/** The texts of the statements sent while `work` runs, repeats included (begin and commit too), in order. */
export async function sentInOrder(work: () => Promise<unknown>): Promise<string[]> {
  const seen = (listing = [])
  try {
    await work()
  } finally {
    listing = null
  }
  return seen
}
