import { createHash } from 'node:crypto'
import type pg from 'pg'

/** Runs of the same text before it is prepared, and prepared statements a connection keeps at most. */
const REPEATS = 3
const PER_CONNECTION = 256
/** Texts whose runs are counted; past this the counts start again (a flood of one-off texts). */
const COUNTED = 10_000

const DML = /^\s*(select|insert|update|delete|with)\b/i

/**
 * node-postgres sends every query unnamed, so Postgres parses and plans it each time. The SQL
 * of a wire read is 10 kB (a customer's 147 members): parsing and planning it took longer than
 * running it (bench/get-customer.ts, bench/lists.ts on Postgres). Statements the pool has run
 * a few times are sent named instead: each connection prepares one once and reuses its plan.
 * A connection keeps at most PER_CONNECTION of them; texts past that are sent unnamed as before.
 * The schema changes only in migrations, before any of this runs, so a prepared statement's
 * result never changes shape under it.
 */
export function preparingStatements(pool: pg.Pool): pg.Pool {
  const runs = new Map<string, number>()
  const names = new Map<string, string>()
  pool.on('connect', (client) => {
    const prepared = new Set<string>()
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    ;(client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      if (typeof config !== 'string' || !Array.isArray(values) || callback !== undefined || !DML.test(config)) {
        return query(config, values, callback)
      }
      const name = nameOf(config, runs, names)
      if (name && (prepared.has(name) || prepared.size < PER_CONNECTION)) {
        prepared.add(name)
        return query({ name, text: config, values })
      }
      return query(config, values)
    }
  })
  return pool
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
