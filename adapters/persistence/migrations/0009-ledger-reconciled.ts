import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * Per feature, the fingerprint of the billing inputs its ledger was last reconciled with
 * (core/billing/reconciled-mark.ts): a billing run skips a feature whose inputs still match,
 * instead of reading its ledger and planning it again. The ledger adapter deletes a feature's
 * row whenever it writes that feature's ledger rows otherwise, so a row is never stale.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await db.schema
    .createTable('ledger_reconciled')
    .addColumn('featureID', dialect.idRefType, (c) => c.primaryKey())
    .addColumn('inputs', 'text', (c) => c.notNull())
    .execute()
}
