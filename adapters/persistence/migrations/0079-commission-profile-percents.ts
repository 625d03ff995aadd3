import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/** The percentage of each profile term, in money units as the presets hold it (5 % → 50000), as `TERM_PERCENT` was then. */
const PERCENTS = ['connectionChargeCommissionProfilePercent', 'serviceChargeCommissionProfilePercent', 'callChargeCommissionProfilePercent'] as const

/**
 * The commission terms a completed run kept (0071) named its features' profiles, and statements
 * and clawbacks looked their percentages up in the presets as they are when read: a profile's
 * percentage changed in the presets file, or the profile removed, changed every completed run.
 * From now on the terms keep each profile's percentage as the run completes
 * (reports/commission-terms.ts), and `profilePercentsKept` (1) says a row has them, since null is
 * also a profile that gave none.
 *
 * Rows kept before stay without them (null): the presets are a file, not in the database, so no
 * migration can know their percentages. Their readers go on taking the presets' by name
 * (core/reports/commission-lines.ts), as before this.
 *
 * One column a statement: SQLite adds no more in one `alter table`.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  for (const c of PERCENTS) await db.schema.alterTable('commission_terms').addColumn(c, 'bigint').execute()
  await db.schema.alterTable('commission_terms').addColumn('profilePercentsKept', 'integer').execute()
}
