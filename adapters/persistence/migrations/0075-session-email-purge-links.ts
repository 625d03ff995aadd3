import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * Two additions to tables of earlier migrations, in the one migration this change may add.
 *
 * A portal session keeps the digest of the email its contact signed in with (contract 14.3,
 * core/portal/sign-in.ts), beside its password's: once the contact's email is cleared or
 * changed, the session no longer matches it and ends at its next request. Sessions from before
 * keep none, so a contact's session ends once after the upgrade (sessions last 30 minutes idle
 * at most).
 *
 * A purged customer's features are unlinked from the carrier bill lines they matched
 * (repositories/kysely-customer-remains.ts): the partial index finds those lines without
 * reading every bill's lines, and holds only the matched ones.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  await db.schema.alterTable('portal_sessions').addColumn('emailDigest', 'text').execute()
  await db.schema
    .createIndex('carrier_bill_lines_feature_idx')
    .on('carrier_bill_lines')
    .column('featureID')
    .where(sql.ref('featureID'), 'is not', null)
    .execute()
}
