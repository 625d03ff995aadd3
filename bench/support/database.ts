import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'
import { FixedClock } from '../../adapters/persistence/system-clock.js'
import { openPlatform, type PlatformConfig } from '../../apps/platform/platform.js'
import { createApiKey } from '../../core/access/api-keys.js'

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A fresh database for one scenario: a temporary SQLite file or a new Postgres schema. */
export interface BenchDatabase {
  readonly kind: 'sqlite' | 'postgres'
  /** What openPlatform needs. */
  readonly config: Pick<PlatformConfig, 'databaseUrl' | 'schema'>
  /** DATABASE_URL for a child process (Postgres: the schema rides in the URL's search_path). */
  readonly childUrl: string
  /** The SQLite file (SQLite only). */
  readonly file?: string
  readonly schema?: string
  /** An admin API key (expert level 5) created in it. */
  readonly key: string
  /** Removes the file or drops the schema. */
  dispose(): Promise<void>
}

/**
 * Creates the database, migrates it and adds an API key, through the platform itself. `reuse`
 * names one a `--keep` run left (its SQLite file or Postgres schema, as that run logs): it is
 * migrated and given a key, and kept, so a seeded database can be measured again.
 */
export async function openBenchDatabase(kind: 'sqlite' | 'postgres', keep = false, reuse: string | null = null): Promise<BenchDatabase> {
  const tag = reuse ?? `bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  if (reuse !== null) keep = true
  let base: Omit<BenchDatabase, 'key'>
  if (kind === 'sqlite') {
    const file = reuse ?? join(mkdtempSync(join(tmpdir(), 'billing-bench-')), 'bench.sqlite')
    const dir = dirname(file)
    base = {
      kind,
      config: { databaseUrl: `sqlite:${file}` },
      childUrl: `sqlite:${file}`,
      file,
      dispose: async () => {
        if (!keep) rmSync(dir, { recursive: true, force: true })
      },
    }
  } else {
    base = {
      kind,
      config: { databaseUrl: POSTGRES_URL, schema: tag },
      childUrl: `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${tag}`)}`,
      schema: tag,
      async dispose() {
        if (keep) return
        const d = connect(POSTGRES_URL)
        try {
          await sql`drop schema if exists ${sql.id(tag)} cascade`.execute(d.db)
        } finally {
          await d.close()
        }
      },
    }
  }
  const clock = new FixedClock('2026-01-15T10:00:00.000Z' as never)
  const platform = await openPlatform({ ...base.config, clock })
  try {
    const { secret } = await createApiKey(platform.context.store.apiKeys, platform.secrets, clock, {
      name: reuse === null ? 'bench' : `bench-${Date.now()}`,
      expertLevel: 5,
      permissions: ['dataProtectionDownload'],
    })
    return { ...base, key: secret }
  } finally {
    await platform.close()
  }
}
