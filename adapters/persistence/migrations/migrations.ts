import type { AnyDb } from '../schema/tables.js'
import { Migrator, sql, type Migration } from 'kysely'
import type { Database } from '../connect.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import * as m0001 from './0001-foundation.js'
import * as m0002 from './0002-resources.js'
import * as m0003 from './0003-lifecycle.js'
import * as m0004 from './0004-jobs.js'
import * as m0005 from './0005-disaster-recovery.js'
import * as m0006 from './0006-idempotency.js'
import * as m0007 from './0007-billing.js'
import * as m0008 from './0008-rating.js'
import * as m0009 from './0009-ledger-reconciled.js'
import * as m0010 from './0010-unrated-calls-index.js'
import * as m0011 from './0011-billing-run-progress.js'
import * as m0012 from './0012-invoice-payments.js'
import * as m0013 from './0013-credit-alerts.js'
import * as m0014 from './0014-history-events.js'
import * as m0015 from './0015-overdue-amount-computed.js'
import * as m0016 from './0016-invoice-messages.js'
import * as m0017 from './0017-renewal-dates.js'
import * as m0018 from './0018-allowances.js'
import * as m0019 from './0019-billing-run-partitions.js'
import * as m0020 from './0020-rating-lookup-indexes.js'
import * as m0021 from './0021-held-credits.js'
import * as m0022 from './0022-idempotency-leases.js'
import * as m0023 from './0023-dated-charges.js'
import * as m0024 from './0024-invoice-delivery.js'
import * as m0025 from './0025-rating-rules.js'
import * as m0026 from './0026-number-call-vat.js'
import * as m0027 from './0027-expected-spend.js'
import * as m0028 from './0028-payment-links.js'
import * as m0029 from './0029-portal-sessions.js'
import * as m0030 from './0030-credit-notes.js'
import * as m0031 from './0031-dunning.js'
import * as m0035 from './0035-review-runs.js'
import * as m0040 from './0040-carriers.js'
import * as m0041 from './0041-carrier-bills.js'
import * as m0042 from './0042-carrier-costs.js'
import * as m0043 from './0043-books-indexes.js'
import * as m0044 from './0044-account-codes.js'
import * as m0045 from './0045-call-coverage.js'
import * as m0046 from './0046-draft-lines-approved.js'
import * as m0054 from './0054-carrier-bill-references.js'
import * as m0058 from './0058-month-partitions.js'
import * as m0060 from './0060-invoice-journal.js'
import * as m0061 from './0061-journal-accounts.js'
import * as m0063 from './0063-margin-index.js'
import * as m0064 from './0064-callback-receipts.js'
import * as m0066 from './0066-old-call-keys.js'
import * as m0067 from './0067-carrier-bill-missing.js'
import * as m0068 from './0068-commission-credits.js'
import * as m0069 from './0069-session-password-receipt-age.js'
import * as m0070 from './0070-reinstate-gaps.js'
import * as m0071 from './0071-commission-terms.js'
import * as m0072 from './0072-event-numbers.js'
import * as m0074 from './0074-delivery-first-attempt.js'
import * as m0075 from './0075-session-email-purge-links.js'
import * as m0076 from './0076-session-pin.js'
import * as m0077 from './0077-orphan-marks.js'
import * as m0078 from './0078-portal-openings.js'
import * as m0079 from './0079-commission-profile-percents.js'
import * as m0080 from './0080-auto-topup-requests.js'
import * as m0081 from './0081-contract-end-notices.js'
import * as m0082 from './0082-idempotency-created-index.js'
import * as m0083 from './0083-numbers-over-credit-limit.js'
import * as m0084 from './0084-dropped-number-keys.js'
import * as m0085 from './0085-login-keys.js'
import * as m0086 from './0086-payment-providers.js'
import * as m0087 from './0087-carrier-keys.js'
import * as m0088 from './0088-pricing-features.js'

type Step = { up(db: AnyDb, dialect: DatabaseDialect): Promise<void> }

/** Every migration in order. Never edit one that has shipped: add the next. */
const steps: Record<string, Step> = {
  '0001-foundation': m0001,
  '0002-resources': m0002,
  '0003-lifecycle': m0003,
  '0004-jobs': m0004,
  '0005-disaster-recovery': m0005,
  '0006-idempotency': m0006,
  '0007-billing': m0007,
  '0008-rating': m0008,
  '0009-ledger-reconciled': m0009,
  '0010-unrated-calls-index': m0010,
  '0011-billing-run-progress': m0011,
  '0012-invoice-payments': m0012,
  '0013-credit-alerts': m0013,
  '0014-history-events': m0014,
  '0015-overdue-amount-computed': m0015,
  '0016-invoice-messages': m0016,
  '0017-renewal-dates': m0017,
  '0018-allowances': m0018,
  '0019-billing-run-partitions': m0019,
  '0020-rating-lookup-indexes': m0020,
  '0021-held-credits': m0021,
  '0022-idempotency-leases': m0022,
  '0023-dated-charges': m0023,
  '0024-invoice-delivery': m0024,
  '0025-rating-rules': m0025,
  '0026-number-call-vat': m0026,
  '0027-expected-spend': m0027,
  '0028-payment-links': m0028,
  '0029-portal-sessions': m0029,
  '0030-credit-notes': m0030,
  '0031-dunning': m0031,
  '0035-review-runs': m0035,
  '0040-carriers': m0040,
  '0041-carrier-bills': m0041,
  '0042-carrier-costs': m0042,
  '0043-books-indexes': m0043,
  '0044-account-codes': m0044,
  '0045-call-coverage': m0045,
  '0046-draft-lines-approved': m0046,
  '0054-carrier-bill-references': m0054,
  '0058-month-partitions': m0058,
  '0060-invoice-journal': m0060,
  '0061-journal-accounts': m0061,
  '0063-margin-index': m0063,
  '0064-callback-receipts': m0064,
  '0066-old-call-keys': m0066,
  '0067-carrier-bill-missing': m0067,
  '0068-commission-credits': m0068,
  '0069-session-password-receipt-age': m0069,
  '0070-reinstate-gaps': m0070,
  '0071-commission-terms': m0071,
  '0072-event-numbers': m0072,
  '0074-delivery-first-attempt': m0074,
  '0075-session-email-purge-links': m0075,
  '0076-session-pin': m0076,
  '0077-orphan-marks': m0077,
  '0078-portal-openings': m0078,
  '0079-commission-profile-percents': m0079,
  '0080-auto-topup-requests': m0080,
  '0081-contract-end-notices': m0081,
  '0082-idempotency-created-index': m0082,
  '0083-numbers-over-credit-limit': m0083,
  '0084-dropped-number-keys': m0084,
  '0085-login-keys': m0085,
  '0086-payment-providers': m0086,
  '0087-carrier-keys': m0087,
  '0088-pricing-features': m0088,
}

/**
 * Brings the schema up to date, or up to the migration `to` (a database as an earlier version
 * left it, for tests of a migration's data). The run applies whole or not at all, and processes
 * that migrate one database at once (a server and a worker starting together) take turns: the
 * dialect's `migrationRun` (dialect/migration-runs.ts). So a migration runs inside a transaction
 * on every dialect: none may need to run outside one.
 */
export async function migrate(database: Database, schema?: string, to?: string): Promise<void> {
  if (schema && database.dialect.name === 'postgres') await sql`create schema if not exists ${sql.id(schema)}`.execute(database.db)
  await database.dialect.migrationRun(database.db, async (db) => {
    const m = migrator(db, database.dialect, schema)
    const { error, results } = await (to ? m.migrateTo(to) : m.migrateToLatest())
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName
      throw new Error(`migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`)
    }
  })
}

/** The migrations this version knows that the database has not applied (readiness). */
export async function pendingMigrations(database: Database, schema?: string): Promise<string[]> {
  const known = await migrator(database.db, database.dialect, schema).getMigrations()
  return known.filter((m) => !m.executedAt).map((m) => m.name)
}

function migrator(db: AnyDb, dialect: DatabaseDialect, schema?: string): Migrator {
  const migrations: Record<string, Migration> = {}
  for (const [name, step] of Object.entries(steps)) migrations[name] = { up: (d) => step.up(d, dialect) }
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema && dialect.name === 'postgres' ? { migrationTableSchema: schema } : {}),
  })
}
