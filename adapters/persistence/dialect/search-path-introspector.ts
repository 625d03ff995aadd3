import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely'

interface ColumnRow {
  schema: string
  table: string
  kind: string
  column: string
  type: string
  type_schema: string
  not_null: boolean
  has_default: boolean
  auto_incrementing: boolean
  comment: string | null
}

/**
 * Kysely's Postgres introspector reads every column of every table in every schema of the
 * database and calls `pg_get_serial_sequence` on each by name: a look-up outside the query's
 * snapshot, which fails ("column "status" of relation "services" does not exist") when another
 * session drops or alters that table meanwhile. Its migrator asks it, on every migrate, whether
 * its own tables exist, so opening the platform failed now and then while another application
 * (another test process's schema) was being changed or dropped in the same database, and a
 * migrator knowing its schema only from the search path could take another schema's migration
 * table for its own. This introspector reads only the schemas of the search path, and tells an
 * auto-incrementing column by its identity or `nextval` default, within the query's snapshot.
 */
export class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select unnest(current_schemas(false)) as name`.execute(this.db)
    return rows
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables ? sql`` : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`
    const { rows } = await sql<ColumnRow>`
      select n.nspname as schema, c.relname as table, c.relkind as kind, a.attname as column,
        t.typname as type, tn.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
        (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)) as auto_incrementing,
        col_description(a.attrelid, a.attnum) as comment
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace n on c.relnamespace = n.oid
      join pg_catalog.pg_type t on a.atttypid = t.oid
      join pg_catalog.pg_namespace tn on t.typnamespace = tn.oid
      left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = any(current_schemas(false)) and c.relkind in ('r', 'v', 'p')
        and a.attnum > 0 and not a.attisdropped ${internal}
      order by n.nspname, c.relname, a.attnum`.execute(this.db)
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>()
    for (const r of rows) {
      const key = `${r.schema}.${r.table}`
      let table = tables.get(key)
      if (!table) tables.set(key, (table = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] }))
      table.columns.push({
        name: r.column,
        dataType: r.type,
        dataTypeSchema: r.type_schema,
        isNullable: !r.not_null,
        isAutoIncrementing: r.auto_incrementing,
        hasDefaultValue: r.has_default,
        comment: r.comment ?? undefined,
      })
    }
    return [...tables.values()]
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) }
  }
}

/** Kysely's Postgres dialect with the introspector above. */
export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db)
  }
}
