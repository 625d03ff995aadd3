import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { openTarget, type Target, type TargetName } from './targets.js'

/**
 * Why: every harness used to migrate a new database from nothing, about 0.1 s on SQLite (all of
 * it this process's CPU) times several hundred harnesses a run. A test process runs many files
 * one after another (scripts/test-worker.mjs), so here SQLite is migrated once a process and each
 * harness starts from a copy of that database: bytes copied, its `kysely_migration` rows with
 * them, so the platform's own migration finds nothing left to do.
 *
 * SQLite only: the migrations make the same tables on a file and in memory, so one image serves
 * both. Postgres stays migrated per harness; see /work/notes or bench/RESULTS.md (session 34) for
 * what copying its schemas would cost. Tests of the migrations themselves, and anything that
 * opens a database at an earlier migration, use `openTarget` and migrate as before.
 */
let image: Promise<Buffer> | null = null

/** The bytes of a SQLite database with every migration applied, made once a process. */
export function migratedSqliteImage(): Promise<Buffer> {
  image ??= makeImage()
  return image
}

async function makeImage(): Promise<Buffer> {
  const database = connect('sqlite::memory:')
  const dir = mkdtempSync(join(tmpdir(), 'billing-template-'))
  try {
    await migrate(database)
    // VACUUM INTO writes the in-memory database to a file of its own in rollback-journal mode,
    // which both `new Database(bytes)` and a file target can start from (no WAL to carry along).
    const file = join(dir, 'template.sqlite')
    await sql`vacuum into ${file}`.execute(database.db)
    return readFileSync(file)
  } finally {
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A target whose database is already migrated: SQLite in memory carries the image for
 * `openPlatform` to start from, a SQLite file is written from it; Postgres is a plain target
 * that `openPlatform` migrates.
 */
export async function openMigratedTarget(name: TargetName): Promise<Target> {
  const target = openTarget(name)
  if (name === 'sqlite-memory') return { ...target, sqliteImage: await migratedSqliteImage() }
  if (name === 'sqlite-file') writeFileSync(target.databaseUrl.slice('sqlite:'.length), await migratedSqliteImage())
  return target
}
