import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * A portal session signed in by account number and PIN keeps the digest of both as they were
 * stored (contract 14.3, core/portal/sign-in.ts `pinSessionHolds`): once the PIN is regenerated
 * or cleared, or the account number changed, the session no longer matches the customer and
 * ends at its next request, as a contact's does on a new password or email (0069, 0075).
 * Sessions from before keep none, so a PIN's session ends once after the upgrade (sessions last
 * 30 minutes idle at most).
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('portal_sessions').addColumn('pinDigest', 'text').execute()
}
