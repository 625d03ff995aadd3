import { sql } from 'kysely'
import type { Database } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { startServer } from './server-process.js'
import { connectBare, openTarget, type Target, type TargetName } from './targets.js'

/** A server process (`apps/server/main.ts`) on a target database, and the test's own connection to it. */
export interface ServedTarget {
  readonly target: Target
  /** The database's URL for another process (a Postgres schema rides in its search_path). */
  readonly url: string
  readonly base: string
  readonly port: number
  readonly key: string
  readonly server: ReturnType<typeof startServer>
  /** The test's connection (no migration: the server made the tables). */
  readonly database: Database
  close(): Promise<number | null>
}

export function childDatabaseUrl(target: Target): string {
  if (!target.schema) return target.databaseUrl
  const url = target.databaseUrl
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${target.schema}`)}`
}

/** Starts a server on a fresh database of `name` with `env`, once a suite. */
export async function serveTarget(name: TargetName, env: Record<string, string>): Promise<ServedTarget> {
  const target = openTarget(name)
  const database = await connectBare(target)
  // Migrated here, by schema: a server that knows its schema only from search_path has Kysely
  // look for its migration tables in any schema, and another suite's may be found instead.
  await migrate(database, target.schema)
  const url = childDatabaseUrl(target)
  const server = startServer({ DATABASE_URL: url, BILLING_RATE_LIMIT: '0', ...env })
  const base = await server.ready
  const key = /shown only once:\n(\S+)/.exec(server.out())![1]
  return {
    target,
    url,
    base,
    port: Number(new URL(base).port),
    key,
    server,
    database,
    async close() {
      if (server.child.exitCode === null) server.child.kill('SIGTERM')
      const code = await server.exited
      await database.close()
      await target.dispose()
      return code
    },
  }
}

/** Postgres: connections of process `pid` idle inside a transaction (a leaked one). */
export async function idleInTransaction(database: Database, pid: number): Promise<number> {
  const ports = await clientPortsOf(pid)
  const rows = await sql<{ client_port: number }>`select client_port from pg_stat_activity where state = 'idle in transaction'`.execute(database.db)
  return rows.rows.filter((r) => ports.has(Number(r.client_port))).length
}

/** The local TCP ports of a process's sockets (Linux: its fds' socket inodes in /proc/net/tcp). */
async function clientPortsOf(pid: number): Promise<Set<number>> {
  const { readdir, readlink, readFile } = await import('node:fs/promises')
  const inodes = new Set<string>()
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')
    const m = /^socket:\[(\d+)\]$/.exec(link)
    if (m) inodes.add(m[1])
  }
  const ports = new Set<number>()
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '')
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      if (cols.length > 9 && inodes.has(cols[9])) ports.add(parseInt(cols[1].split(':')[1], 16))
    }
  }
  return ports
}
