import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * Two additions to tables of earlier migrations, in the one migration this change may add.
 *
 * A portal session keeps the digest of the password hash its contact signed in with (contract
 * 14.3, core/portal/sign-in.ts): once the contact's password changes, however it is changed, the
 * session's digest no longer matches and the session ends at its next request. Sessions from
 * before keep none, so a contact's session ends once after the upgrade (sessions last 30 minutes
 * idle at most).
 *
 * The purge job deletes provider callback receipts (0064) older than their retention
 * (core/payments/receipt-retention.ts): the index finds them without reading the table.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('portal_sessions').addColumn('passwordDigest', 'text').execute()
  await db.schema.createIndex('callback_receipts_received_idx').on('callback_receipts').column('receivedStamp').execute()
}
