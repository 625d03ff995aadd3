import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'

/**
 * Why this exists: a copy of the migrated Postgres schema costs the server about 0.35 s and its
 * drop 0.1-0.2 s, over half of the server's time in the http suites, and a run makes some 300
 * of them on the cores the test processes share. A closed harness's schema is put back to what
 * a fresh copy is instead, and the process's next harness starts from it.
 *
 * "What a fresh copy is" is checked, not assumed: the relations with their columns, files' sizes
 * and statistics, the constraints and the migrations (`fingerprint`). A schema a test changed in
 * shape or statistics (a partition made, a column added, a table analysed) is dropped as before.
 * The tables a test wrote to are truncated, not emptied row by row: rows deleted leave their
 * pages behind (autovacuum is off on these machines), and the planner reads a table's size from
 * its file, so plans on a reused schema would differ from a copy's. An earlier version deleted
 * rows (session 47) and was taken out when postgres-plans' billing run lost a partition's lease
 * under it; the same fingerprint, sizes included, must hold after the truncation, or the schema
 * is dropped.
 */
export class SpareSchemas {
  private readonly spare: string[] = []
  /** A fresh copy's fingerprint, sizes included, taken from the first copy before any use. */
  private template: string | null = null
  /** The tables the copy analyses (their statistics are part of the fingerprint). */
  private analysed: readonly string[] = []
  private admin: ReturnType<typeof connect> | null = null
  private renames = 0

  constructor(private readonly url: string) {}

  /** A schema put back to a fresh copy's state, or null when there is none to reuse. */
  take(): string | null {
    return this.spare.pop() ?? null
  }

  /** Notes what a just-made copy looks like, before any test changes it. */
  async learn(schema: string, analysed: readonly string[]): Promise<void> {
    if (this.template !== null) return
    this.analysed = analysed
    this.template = await fingerprint(this.db(), schema, true)
  }

  /** Puts a closed harness's schema back for the next, or drops it when it cannot be. */
  async recycle(schema: string): Promise<void> {
    const db = this.db()
    if (this.template !== null && (await fingerprint(db, schema, false)) === shapeOf(this.template)) {
      await empty(db, schema, this.analysed)
      if ((await fingerprint(db, schema, true)) === this.template) {
        // Under a new name, as a new copy would be: a process the test left running on the old
        // one (a worker child polling for runs) then finds no tables, as it did after a drop,
        // rather than billing the next test's runs.
        const renamed = `${schema.replace(/_r\d+$/, '')}_r${++this.renames}`
        await sql`alter schema ${sql.id(schema)} rename to ${sql.id(renamed)}`.execute(db)
        this.spare.push(renamed)
        return
      }
    }
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db)
  }

  /** One connection for the process's recycling, closed (the spares dropped) when the process's work is done. */
  private db(): ReturnType<typeof connect>['db'] {
    if (this.admin) return this.admin.db
    const admin = (this.admin = connect(this.url))
    process.once('beforeExit', async () => {
      try {
        for (const schema of this.spare.splice(0)) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db)
      } finally {
        this.admin = null
        await admin.close()
      }
    })
    return admin.db
  }
}

type Db = ReturnType<typeof connect>['db']

/**
 * What a test may change that a copy would not have: the relations, their columns (`relnatts`
 * counts dropped ones too), their statistics (`reltuples`: -1 until analysed), the constraints
 * and the migrations recorded; with `sizes`, every relation's file size too (what the planner
 * reads of a table never analysed). Sizes come after a `|`, so the shape alone can be compared.
 */
async function fingerprint(db: Db, schema: string, sizes: boolean): Promise<string> {
  const { rows } = await sql<{ relations: string; sizes: string | null; constraints: number; migrations: number }>`
    select
      (select string_agg(c.relname || ':' || c.relkind::text || ':' || c.relnatts || ':' || c.reltuples::bigint, ',' order by c.relname)
        from pg_class c where c.relnamespace = ${schema}::regnamespace) as relations,
      (select string_agg(c.relname || ':' || pg_relation_size(c.oid), ',' order by c.relname)
        from pg_class c where ${sizes} and c.relnamespace = ${schema}::regnamespace and c.relkind in ('r', 'i', 't')) as sizes,
      (select count(*)::int from pg_constraint where connamespace = ${schema}::regnamespace) as constraints,
      (select count(*)::int from ${sql.id(schema, 'kysely_migration')}) as migrations`.execute(db)
  const { sizes: files, ...shape } = rows[0]
  return `${JSON.stringify(shape)}|${files ?? ''}`
}

const shapeOf = (print: string) => `${print.slice(0, print.indexOf('|'))}|`

/**
 * Truncates every table a test wrote to (its file is no longer empty; the migrations' own two
 * keep their rows) and those referencing them, counts their indexes as a copy's, sets every
 * sequence back to its start, and analyses again the tables a copy has analysed (a truncation
 * forgets their statistics).
 */
async function empty(db: Db, schema: string, analysed: readonly string[]): Promise<void> {
  const written = (
    await sql<{ name: string }>`
      select relname as name from pg_class
      where relnamespace = ${schema}::regnamespace and relkind = 'r' and pg_relation_size(oid) > 0
        and relname not in ('kysely_migration', 'kysely_migration_lock')`.execute(db)
  ).rows.map((r) => r.name)
  if (written.length > 0) await sql`truncate ${sql.join(written.map((t) => sql.id(schema, t)))} cascade`.execute(db)
  const sequences = (await sql<{ name: string; start: string }>`select sequencename as name, start_value as start from pg_sequences where schemaname = ${schema}`.execute(db)).rows
  // setval, not ALTER SEQUENCE ... RESTART: that gives the sequence a new file, a catalog row changed each time.
  if (sequences.length > 0) await sql.raw(sequences.map((s) => `select setval('"${schema}"."${s.name}"', ${BigInt(s.start)}, false);`).join('\n')).execute(db)
  // A truncation leaves the indexes unmeasured (reltuples -1, no pages counted), where a copy's
  // were built on empty tables (0 rows, one page: the metapage), and REINDEX keeps them unknown.
  // The planner estimates a partial index's rows from those, so they are set as a copy has them.
  await sql`update pg_catalog.pg_class set reltuples = 0, relpages = 1 where relnamespace = ${schema}::regnamespace and relkind = 'i' and reltuples < 0`.execute(db)
  const again = analysed.filter((t) => written.includes(t))
  if (again.length > 0) await sql`analyze ${sql.join(again.map((t) => sql.id(schema, t)))}`.execute(db)
}
