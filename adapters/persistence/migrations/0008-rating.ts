import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { createResourceTable } from '../schema/columns.js'

/** Usage files and the call records imported from them. */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await createResourceTable(db, dialect, catalogue.usageFiles)
  await createResourceTable(db, dialect, catalogue.calls)
  // The Call Charges transaction a run stamped on each call it billed. Since migration 0045 it is
  // derived from the transactions instead (call-coverage.ts): the catalogue's field is computed,
  // and this column holds only what runs stamped before then.
  await db.schema.alterTable('calls').addColumn('transactionID', dialect.idRefType).execute()
  await db.schema.createIndex('calls_customer_idx').on('calls').columns(['customerID', 'transactionID', 'startTime']).execute()
  await db.schema.createIndex('calls_number_idx').on('calls').column('numberID').execute()
  await db.schema.createIndex('calls_rated_idx').on('calls').columns(['rated', 'startTime']).execute()
}
