import type { AnyDb } from '../schema/tables.js'
import { customers } from '../../../core/fields/customers.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** API keys and customers. */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await dialect
    .addIdColumn(db.schema.createTable('api_keys') as any)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('keyHash', 'text', (c) => c.notNull().unique())
    .addColumn('expertLevel', 'integer', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('createdStamp', 'text', (c) => c.notNull())
    .addColumn('revokedStamp', 'text')
    .execute()
  await createResourceTable(db, dialect, customers)
}
