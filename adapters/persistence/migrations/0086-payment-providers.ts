import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { PaymentLinkTarget } from '../../../core/payments/payment-links.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { uniqueKey } from '../schema/month-partitions.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

const PAGE = 1000

/**
 * A payment a provider reported is its provider's and its reference (contract 15.1): two
 * providers may both number theirs 1001, and the second's payment was taken for a copy of the
 * first's and never recorded. Payments keep their provider (`paymentProvider`) and their
 * reference is unique per provider; the unique index of the reference alone (0028, on Postgres
 * with the month's column since 0058) gives way to one of the pair, which, as the old one did,
 * keeps one of two copies racing past apply-callback.ts's check.
 *
 * Stored payments get their provider where it can be told: the provider that signed the callback
 * (`provider:<name>`, its history entry's author), else the one provider of the customer's links
 * whose label and the reference make the payment's description. The others stay null, and
 * apply-callback.ts takes them for any provider's, so that none is recorded a second time. A
 * restore of an archive from before this fills them the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.transactions, [...laterColumns['0086-payment-providers'].transactions!])
  await fillPaymentProviders(db)
  await db.schema.dropIndex('transactions_provider_reference_key').execute()
  const columns = uniqueKey(dialect, 'transactions', ['paymentProvider', 'providerReference'])
  let index = db.schema.createIndex('transactions_payment_key').unique().on('transactions').columns([...columns]).where(sql.ref('providerReference'), 'is not', null)
  // Partitioned, the index holds the month's column, null on payments: nulls are then equal (as 0058's).
  if (dialect.partitions) index = index.nullsNotDistinct()
  await index.execute()
}

/** Sets the provider of each stored payment a provider reported, where it can be told. */
export async function fillPaymentProviders(db: AnyDb): Promise<void> {
  // `provider:` is 9 characters: the name follows it.
  await sql`update transactions set "paymentProvider" = (
      select substr(h."apiKeyName", 10) from history h
      where h.resource = 'transactions' and h."resourceID" = transactions.id and h.action = 'create' and h."apiKeyName" like 'provider:%'
      order by h.id limit 1)
    where "providerReference" is not null and "paymentProvider" is null`.execute(db)
  let after: unknown = 0
  for (;;) {
    const rows = await db.selectFrom('transactions').select(['id', 'customerID', 'description', 'providerReference'])
      .where('providerReference', 'is not', null).where('paymentProvider', 'is', null).where('id', '>', after).orderBy('id').limit(PAGE).execute()
    for (const r of rows) {
      const provider = await labelledProvider(db, r.customerID, r.description, r.providerReference)
      if (provider) await db.updateTable('transactions').set({ paymentProvider: provider }).where('id', '=', r.id).execute()
    }
    if (rows.length < PAGE) break
    after = rows.at(-1)!.id
  }
}

/** The one provider of the customer's links whose label and the reference make the description (`Pay by card (1001)`), if one. */
async function labelledProvider(db: AnyDb, customerID: unknown, description: unknown, reference: string): Promise<string | null> {
  if (customerID === null || typeof description !== 'string') return null
  const links = await db.selectFrom('payment_links').select('links').where('customerID', '=', customerID).execute()
  const names = new Set<string>()
  for (const { links: stored } of links) {
    for (const t of targets(stored)) if (`${t.label} (${reference})` === description) names.add(t.providerName)
  }
  return names.size === 1 ? [...names][0] : null
}

/** A link row's targets, as JSON text or parsed, skipping anything else. */
function targets(stored: unknown): PaymentLinkTarget[] {
  try {
    const parsed: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored
    return Array.isArray(parsed) ? parsed.filter((t) => t && typeof t.label === 'string' && typeof t.providerName === 'string') : []
  } catch {
    return []
  }
}
