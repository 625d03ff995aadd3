import { sql } from 'kysely'
import { connect } from '../../adapters/persistence/connect.js'

/**
 * Why this exists: a copy of the migrated Postgres schema costs the server about 0.3 s and its
 * drop 0.1 s, and a run makes some 270 of them on the cores the test processes share. A
 * harness's schema, once it is closed, is emptied back to its migrated state instead (every row
 * deleted, the sequences set back, a new name: about 15 ms), and the process's next harness
 * starts from it.
 * A schema a test changed in shape or in statistics (a partition made, a column added, a table
 * analysed or vacuumed) is dropped as before, so that every harness starts as a fresh copy would:
 * the plans tests read depend on those statistics.
 */
export class SpareSchemas {
  private readonly spare: string[] = []
  /** The template's fingerprint (`fingerprint`), taken from the first copy before any use. */
  private template: string | null = null
  /** The statements that empty a schema, its name replaced by `NAME`, found once. */
  private emptying: string | null = null
  private exitHook = false
  private renames = 0

  constructor(private readonly url: string) {}

  /** A schema emptied to its migrated state, or null when there is none to reuse. */
  take(): string | null {
    return this.spare.pop() ?? null
  }

  /** Notes what a just-made copy looks like, before any test changes it. */
  async learn(schema: string): Promise<void> {
    if (this.template !== null) return
    const database = connect(this.url)
    try {
      this.template = await fingerprint(database.db, schema)
      this.emptying = await emptyingScript(database.db, schema)
    } finally {
      await database.close()
    }
  }

  /** Empties a closed harness's schema for the next, or drops it when a test changed it. */
  async recycle(schema: string): Promise<void> {
    const database = connect(this.url)
    try {
      if (this.template !== null && this.emptying !== null && (await fingerprint(database.db, schema)) === this.template) {
        await sql.raw(this.emptying.split(NAME).join(schema)).execute(database.db)
        // Under a new name, as a new copy would be: a process the test left running on the old
        // one (a worker child polling for runs) then finds no tables, as it did after a drop,
        // rather than billing the next test's runs.
        const renamed = `${schema.replace(/_r\d+$/, '')}_r${++this.renames}`
        await sql`alter schema ${sql.id(schema)} rename to ${sql.id(renamed)}`.execute(database.db)
        this.spare.push(renamed)
        this.dropAtExit()
        return
      }
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db)
    } finally {
      await database.close()
    }
  }

  /** The process drops what it kept when its work is done (a test process ends when its queue is). */
  private dropAtExit(): void {
    if (this.exitHook) return
    this.exitHook = true
    process.once('beforeExit', async () => {
      const gone = this.spare.splice(0)
      if (gone.length === 0) return
      const database = connect(this.url)
      try {
        for (const schema of gone) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db)
      } finally {
        await database.close()
      }
    })
  }
}

const NAME = '\u0000schema\u0000'
type Db = ReturnType<typeof connect>['db']

/**
 * What a test may change that emptying would not put back: the relations, their columns
 * (`relnatts` counts dropped ones too), their statistics (`reltuples`: -1 until analysed), the
 * constraints and the migrations recorded.
 */
async function fingerprint(db: Db, schema: string): Promise<string> {
  const { rows } = await sql<{ relations: string; constraints: number; migrations: number }>`
    select
      (select string_agg(c.relname || ':' || c.relkind::text || ':' || c.relnatts || ':' || c.reltuples::bigint, ',' order by c.relname)
        from pg_class c where c.relnamespace = ${schema}::regnamespace) as relations,
      (select count(*)::int from pg_constraint where connamespace = ${schema}::regnamespace) as constraints,
      (select count(*)::int from ${sql.id(schema, 'kysely_migration')}) as migrations`.execute(db)
  return JSON.stringify(rows[0])
}

/** Deletes every row but the migrations', tables referencing others first, and sets every sequence back to its start. */
async function emptyingScript(db: Db, schema: string): Promise<string> {
  const tables = (
    await sql<{ name: string }>`
      select relname as name from pg_class
      where relnamespace = ${schema}::regnamespace and relkind in ('r', 'p') and not relispartition
        and relname not in ('kysely_migration', 'kysely_migration_lock')`.execute(db)
  ).rows.map((r) => r.name)
  const references = (
    await sql<{ child: string; parent: string }>`
      select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = ${schema}::regnamespace and k.conparentid = 0 and k.conrelid <> k.confrelid`.execute(db)
  ).rows
  const sequences = (await sql<{ name: string; start: string }>`select sequencename as name, start_value as start from pg_sequences where schemaname = ${schema}`.execute(db)).rows
  // A table is emptied once no table left to empty references it.
  const order: string[] = []
  const left = new Set(tables)
  while (left.size > 0) {
    const free = [...left].filter((t) => !references.some((r) => r.parent === t && r.child !== t && left.has(r.child)))
    if (free.length === 0) throw new Error(`spare-schemas: the foreign keys among ${[...left].join(', ')} form a loop`)
    for (const t of free) left.delete(t), order.push(t)
  }
  const qualified = (name: string) => `"${NAME}"."${name}"`
  // setval, not ALTER SEQUENCE ... RESTART: that gives the sequence a new file, a catalog row changed each time.
  const restarts = sequences.map((s) => `select setval('${qualified(s.name)}', ${BigInt(s.start)}, false);`)
  return [...order.map((t) => `delete from ${qualified(t)};`), ...restarts].join('\n')
}
