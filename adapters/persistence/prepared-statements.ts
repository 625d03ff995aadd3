import { createHash } from 'node:crypto'
import pg from 'pg'

/** Runs of the same text before it is prepared, and prepared statements a connection keeps at most. */
const REPEATS = 3
const PER_CONNECTION = 256
/** Texts whose runs are counted; past this the counts start again (a flood of one-off texts). */
const COUNTED = 10_000

const DML = /^\s*(select|insert|update|delete|with)\b/i

/**
 * node-postgres sends every query unnamed, so Postgres parses and plans it each time. The SQL
 * of a list read is 10 kB (a customer's 147 members): parsing and planning it took longer than
 * running it (bench/get-customer.ts, bench/lists.ts on Postgres). Statements the pool has run
 * a few times are sent as pg's named statements instead (`{ name, text, values }`): each
 * connection prepares one once and reuses its plan. A connection keeps at most PER_CONNECTION
 * of them; texts past that are sent unnamed as before. The schema changes only in migrations,
 * before any of this runs, so a prepared statement's result never changes shape under it.
 *
 * The class is given to the pool as its `Client` (pg's own extension point for the client a
 * pool makes); one class per pool shares the pool's counts of texts between its connections.
 */
export function preparingClient(): typeof pg.Client {
  const runs = new Map<string, number>()
  const names = new Map<string, string>()
  return class PreparingClient extends pg.Client {
    private readonly prepared = new Set<string>()

    // pg's `query` has a dozen overloads; only (text, values) without a callback is named, as Kysely calls it.
    override query(...args: any[]): any {
      const [config, values, callback] = args
      if (typeof config !== 'string' || !Array.isArray(values) || callback !== undefined || !DML.test(config)) {
        return (super.query as (...a: unknown[]) => unknown)(...args)
      }
      const name = nameOf(config, runs, names)
      if (name && (this.prepared.has(name) || this.prepared.size < PER_CONNECTION)) {
        this.prepared.add(name)
        return super.query({ name, text: config, values })
      }
      return super.query(config, values)
    }
  }
}

/** The statement name of a text run REPEATS times or more (a digest of it), else null. */
function nameOf(text: string, runs: Map<string, number>, names: Map<string, string>): string | null {
  const known = names.get(text)
  if (known) return known
  const count = (runs.get(text) ?? 0) + 1
  if (count < REPEATS) {
    if (runs.size >= COUNTED) runs.clear()
    runs.set(text, count)
    return null
  }
  runs.delete(text)
  if (names.size >= COUNTED) names.clear()
  const name = `s${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`
  names.set(text, name)
  return name
}
