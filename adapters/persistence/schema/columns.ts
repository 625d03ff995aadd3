import type { AnyDb } from './tables.js'
import type { ColumnDataType, CreateTableBuilder } from 'kysely'
import type { Field } from '../../../core/fields/field.js'
import type { Resource } from '../../../core/fields/resource.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addedLater } from '../migrations/later-columns.js'

/** The column type of a field: text for names, dates and stamps (text order is time order). */
export function columnType(field: Field, dialect: DatabaseDialect): ColumnDataType {
  switch (field.type) {
    case 'id':
      return dialect.idRefType
    case 'number':
      return dialect.types.real
    case 'currency':
      return dialect.types.bigint
    case 'boolean':
      return 'integer'
    default:
      return 'text'
  }
}

/**
 * Creates a resource's table from its catalogue entry: one column per stored field, unique
 * fields (alone or with another) backed by unique indexes, the given owner IDs by indexed
 * foreign keys. Fields a later migration adds (migrations/later-columns.ts) are left to it.
 */
export async function createResourceTable(
  db: AnyDb,
  dialect: DatabaseDialect,
  resource: Resource,
  foreignKeys: Record<string, string> = {},
): Promise<void> {
  const later = addedLater(resource.name)
  const columns = resource.columns.filter((f) => !later.has(f.name))
  let table = dialect.addIdColumn(db.schema.createTable(resource.table) as CreateTableBuilder<string, never>)
  for (const f of columns) {
    if (f.name === 'id') continue
    const target = foreignKeys[f.name]
    table = table.addColumn(f.name, columnType(f, dialect), (c) => {
      let col = f.type === 'boolean' ? c.notNull().defaultTo(0) : c
      if (target) col = col.references(target)
      return col
    })
  }
  await table.execute()
  for (const f of columns) {
    if (f.unique || f.uniqueWith) {
      await db.schema.createIndex(`${resource.table}_${f.name}_key`).unique().on(resource.table).columns(f.uniqueWith ? [f.uniqueWith, f.name] : [f.name]).execute()
    } else if (foreignKeys[f.name] || f.digitsOf) {
      await db.schema.createIndex(`${resource.table}_${f.name}_idx`).on(resource.table).column(f.name).execute()
    }
  }
}

/** Adds columns for fields added to the catalogue after a table was created. */
export async function addColumns(db: AnyDb, dialect: DatabaseDialect, resource: Resource, names: string[]): Promise<void> {
  for (const name of names) {
    const f = resource.byName.get(name)
    if (!f) throw new Error(`${resource.name}.${name} is not in the catalogue`)
    await db.schema
      .alterTable(resource.table)
      .addColumn(name, columnType(f, dialect), (c) => (f.type === 'boolean' ? c.notNull().defaultTo(0) : c))
      .execute()
  }
}
