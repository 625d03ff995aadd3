import type { AnyDb } from '../schema/tables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

/**
 * Billing runs move features' past renewal dates on (contract 11): the few features with a
 * renewal date before a run's cutoff are found through this index, not by reading every feature.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.createIndex('features_renewal_date').on('features').column('renewalDate').execute()
}
