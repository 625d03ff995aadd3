import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * A reconciled mark (0009) goes with its feature: a delete of a feature, or of the number or
 * service that takes its features, drops their marks in its transaction (`Ledger.removeFeatures`),
 * as the purge does a customer's. Deletes before this left them behind, read by nothing but
 * kept for good, and a mark must never be read against another feature: they go now. A restore
 * of an archive from before this drops them the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await dropOrphanMarks(db)
}

/** Deletes the marks of features that are no longer stored. */
export async function dropOrphanMarks(db: AnyDb): Promise<void> {
  await sql`delete from ledger_reconciled where not exists (select 1 from features where features.id = ledger_reconciled."featureID")`.execute(db)
}
