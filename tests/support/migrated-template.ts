import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'
import { migrate } from '../../adapters/persistence/migrations/migrations.js'
import { SpareSchemas } from './spare-schemas.js'
import { openTarget, type Target, type TargetName } from './targets.js'

/**
 * Why this exists: every harness used to migrate a new database from nothing, all ~44
 * migrations, about 420 times a run (140 on each target). A test process runs many files one
 * after another (scripts/test-worker.mjs), so each database kind is migrated once a process
 * here, and each harness starts from a copy of that database. The copy holds the
 * `kysely_migration` rows too, and a harness's platform does not look for migrations to run
 * (`migrated`): on Postgres that look alone was about 0.12 s, most of it introspection.
 *
 * - SQLite (in memory and file): the migrated database's bytes. An in-memory database opens
 *   from them (`sqliteImage`), a file target is written from them: 50-100 ms less a harness.
 * - Postgres: the migrated schema as pg_dump writes it, run again under each new schema's name
 *   in one statement: about half of what the migrations cost, most of it the server's (which in
 *   CI shares the test processes' cores). Without a working pg_dump (it comes with Postgres's
 *   client tools) the schemas are migrated as before. A closed harness's schema is put back to
 *   a fresh copy's state for the process's next harness rather than dropped (spare-schemas.ts).
 *
 * Only harnesses use it (their databases are always fully migrated): tests of the migrations
 * themselves, and anything that opens a database at an earlier migration, use `openTarget`.
 */
export async function openMigratedTarget(name: TargetName): Promise<Target> {
  const target = openTarget(name)
  if (name === 'sqlite-memory') return { ...target, sqliteImage: await migratedSqliteImage() }
  if (name === 'sqlite-file') writeFileSync(target.databaseUrl.slice('sqlite:'.length), await migratedSqliteImage())
  if (name === 'postgres') return postgresTarget(target)
  return { ...target, migrated: true }
}

let spares: SpareSchemas | null = null

/** A schema an earlier harness of this process left as a fresh copy, else a new copy; put back or dropped when disposed. */
async function postgresTarget(target: Target): Promise<Target> {
  spares ??= new SpareSchemas(target.databaseUrl)
  const reused = spares.take()
  // A schema pg_dump cannot script is left for the platform to migrate.
  if (!reused && !(await copyMigratedSchema(target))) return target
  const schema = reused ?? target.schema!
  if (!reused) await spares.learn(schema, (await schemaScript)!.analysed)
  const owner = spares
  return { ...target, schema, migrated: true, dispose: () => owner.recycle(schema) }
}

let sqliteImage: Promise<Buffer> | null = null

/** The bytes of a SQLite database with every migration applied, made once a process. */
export function migratedSqliteImage(): Promise<Buffer> {
  sqliteImage ??= makeSqliteImage()
  return sqliteImage
}

async function makeSqliteImage(): Promise<Buffer> {
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

interface SchemaScript {
  /** pg_dump's script of the template schema, its name replaced by `SCHEMA_NAME`. */
  readonly script: string
  /** The tables the migrations analysed (partitioning does): a copy's are analysed too. */
  readonly analysed: readonly string[]
}

const SCHEMA_NAME = '\u0000schema\u0000'
let schemaScript: Promise<SchemaScript | null> | null = null

/** Makes `target.schema` a copy of a migrated schema, unless pg_dump cannot script one (false). */
async function copyMigratedSchema(target: Target): Promise<boolean> {
  schemaScript ??= makeSchemaScript(target.databaseUrl)
  const made = await schemaScript
  if (!made) return false
  const database = connect(target.databaseUrl, { schema: target.schema })
  try {
    // pg_dump's script sets session settings: on a connection of its own, closed after.
    await sql.raw(made.script.split(SCHEMA_NAME).join(target.schema!)).execute(database.db)
    if (made.analysed.length) await sql`analyze ${sql.join(made.analysed.map((t) => sql.id(t)))}`.execute(database.db)
  } finally {
    await database.close()
  }
  return true
}

async function makeSchemaScript(url: string): Promise<SchemaScript | null> {
  const template = `template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const database = connect(url, { schema: template })
  try {
    await migrate(database, template)
    const { stdout } = await promisify(execFile)('pg_dump', ['--dbname', url, '--schema', template, '--no-owner', '--no-privileges', '--inserts'], {
      maxBuffer: 64 * 1024 * 1024,
    })
    const { rows } = await sql<{ name: string }>`
      select relname as name from pg_class
      where relnamespace = ${template}::regnamespace and relkind in ('r', 'p') and reltuples >= 0 order by 1`.execute(database.db)
    // Its search_path line is left out: names in the script are qualified, and the harness's
    // connections have theirs. psql's meta-commands (\restrict in newer versions) are no SQL.
    const script = stdout
      .replace(/^SELECT pg_catalog\.set_config\('search_path', '', false\);$/m, '')
      .replace(/^\\.*$/gm, '')
      .split(template)
      .join(SCHEMA_NAME)
    return { script, analysed: rows.map((r) => r.name) }
  } catch (error) {
    console.log(`[migrated-template] Postgres schemas are migrated one by one: no migrated schema to copy (${(error as Error).message.split('\n')[0]})`)
    return null
  } finally {
    await sql`drop schema if exists ${sql.id(template)} cascade`.execute(database.db).catch(() => {})
    await database.close()
  }
}
