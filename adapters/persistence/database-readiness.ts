import type { Database } from './connect.js'
import { pendingMigrations } from './migrations/migrations.js'

/**
 * Ready when the database answers and holds every migration this version knows (a server
 * started with migrations skipped, or pointed at a database another version left behind, is
 * not). The reason names no host or driver detail: `/readyz` answers without a key.
 */
export function databaseReadiness(database: Database, schema?: string) {
  return {
    async check(): Promise<{ readonly ready: true } | { readonly ready: false; readonly reason: string }> {
      let pending: string[]
      try {
        pending = await pendingMigrations(database, schema)
      } catch {
        return { ready: false, reason: 'the database does not answer' }
      }
      return pending.length ? { ready: false, reason: `migrations not applied: ${pending.join(', ')}` } : { ready: true }
    },
  }
}
