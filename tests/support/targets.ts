import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { connect, type Database } from '../../adapters/persistence/connect.js'

/** The databases every repository and HTTP suite runs against (Kysely's dialect loop). */
export const targetNames = ['sqlite-memory', 'sqlite-file', 'postgres'] as const
export type TargetName = (typeof targetNames)[number]

export interface Target {
  readonly name: TargetName
  readonly databaseUrl: string
  readonly schema?: string
  /** SQLite in memory: the database starts as a copy of these bytes (migrated-template.ts). */
  readonly sqliteImage?: Buffer
  /** Already migrated (migrated-template.ts): a platform opened on it need not look for migrations to run. */
  readonly migrated?: boolean
  /** Removes what the target created (temp files, the Postgres schema). */
  dispose(): Promise<void>
}

const postgresUrl = process.env.TEST_DATABASE_URL
let skippedSuites = 0

/**
 * The targets this run can use; Postgres only with TEST_DATABASE_URL. Each suite left without
 * Postgres is counted, and the count is said once at the end, in the form scripts/test.mjs
 * adds to its summary line.
 */
export function activeTargets(): TargetName[] {
  const only = process.env.TEST_TARGETS?.split(',').map((s) => s.trim())
  const names = targetNames.filter((n) => (n !== 'postgres' || postgresUrl) && (!only || only.includes(n)))
  if (!postgresUrl && (!only || only.includes('postgres'))) {
    if (skippedSuites++ === 0) {
      process.on('exit', () => console.log(`\n[postgres] SKIPPED ${skippedSuites} suite${skippedSuites === 1 ? '' : 's'}: TEST_DATABASE_URL is not set, so the Postgres suites did not run\n`))
    }
  }
  return names
}

let counter = 0

export function openTarget(name: TargetName): Target {
  counter += 1
  switch (name) {
    case 'sqlite-memory':
      return { name, databaseUrl: 'sqlite::memory:', dispose: async () => {} }
    case 'sqlite-file': {
      const dir = mkdtempSync(join(tmpdir(), 'billing-test-'))
      return {
        name,
        databaseUrl: `sqlite:${join(dir, 'test.sqlite')}`,
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      }
    }
    case 'postgres': {
      if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set')
      const schema = `t_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`
      return {
        name,
        databaseUrl: postgresUrl,
        schema,
        async dispose() {
          const d = connect(postgresUrl)
          try {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(d.db)
          } finally {
            await d.close()
          }
        },
      }
    }
  }
}

/** A connection to the target without the platform's tables, its schema made (tests of a dialect itself). */
export async function connectBare(target: Target): Promise<Database> {
  const database = connect(target.databaseUrl, { schema: target.schema })
  if (target.schema) await sql`create schema if not exists ${sql.id(target.schema)}`.execute(database.db)
  return database
}
