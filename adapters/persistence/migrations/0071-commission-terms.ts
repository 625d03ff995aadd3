import { sql, type RawBuilder } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/** The feature's terms kept, as text and as money (minor units), as `TERM_TEXT` and `TERM_MONEY` were then. */
const TERM_TEXT = ['commissionHolder', 'connectionChargeCommissionType', 'serviceChargeCommissionType', 'commissionHolderID2', 'connectionChargeCommissionType2', 'serviceChargeCommissionType2', 'connectionChargeCommissionProfile', 'serviceChargeCommissionProfile', 'callChargeCommissionProfile', 'serviceChargeInterval', 'startDate'] as const
const TERM_MONEY = ['connectionChargeCommission', 'serviceChargeCommission', 'connectionChargeCommission2', 'serviceChargeCommission2'] as const

/** The columns besides the terms. */
const KEYS = ['billingRunID', 'transactionID', 'featureID', 'kind', 'customerID', 'accountNumber', 'customerHolder', 'commissionReferenceDate', 'saleType', 'holder'] as const

/** The feature earning on a `Call Charges` row `t`, as `callFeature` chose it then. */
const callFeature = sql`(select g.id from features g where g."numberID" = t."numberID" and coalesce(${sql.ref('g.callChargeCommissionProfile')}, '') not in ('', 'None')
    and (g."startDate" is null or g."startDate" <= coalesce(t."dateFrom", t."transactionDate"))
    and (g."endDate" is null or g."endDate" >= coalesce(t."dateFrom", t."transactionDate"))
    and (g."isDropped" = 0 or g."billToDate" >= coalesce(t."dateFrom", t."transactionDate"))
    order by coalesce(g."startDate", '') desc, g.id desc limit 1)`

/**
 * The commission terms a completed run's rows earned on (contract 16.3, reports/commission-terms.ts):
 * a row per row of its invoices that may earn, with the feature's and customer's terms, kept as the
 * run completes. Statements read them from the features as they are now before, so a changed
 * rate or holder changed a completed run's statement, and a credit note clawed back at today's
 * rate. Runs completed already are given today's terms: nothing better is known of them (so are
 * those of an archive from before this, restored: `keepCompletedRunsTerms`).
 *
 * Looked up by run and holder (primary or secondary) for a statement, by row for a clawback.
 *
 * The columns and the backfill are written out as they were when this migration shipped, not
 * imported from reports/commission-terms.ts: a term added there later comes with a migration of
 * its own, which would fail on (or repeat) a column this one had already taken from the live list.
 */
export async function up(db: AnyDb, _dialect: DatabaseDialect): Promise<void> {
  let table = db.schema
    .createTable('commission_terms')
    .addColumn('billingRunID', 'bigint', (c) => c.notNull())
    .addColumn('transactionID', 'bigint', (c) => c.notNull())
    .addColumn('featureID', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('customerID', 'bigint', (c) => c.notNull())
    .addColumn('accountNumber', 'text')
    .addColumn('customerHolder', 'text')
    .addColumn('commissionReferenceDate', 'text')
    .addColumn('saleType', 'text')
    .addColumn('holder', 'text')
  for (const c of TERM_TEXT) table = table.addColumn(c, 'text')
  for (const c of TERM_MONEY) table = table.addColumn(c, 'bigint')
  await table.execute()
  await db.schema.createIndex('commission_terms_holder_idx').on('commission_terms').columns(['billingRunID', 'holder', 'transactionID']).execute()
  await db.schema.createIndex('commission_terms_holder2_idx').on('commission_terms').columns(['billingRunID', 'commissionHolderID2', 'transactionID']).execute()
  await db.schema.createIndex('commission_terms_transaction_idx').on('commission_terms').column('transactionID').execute()
  await keepCompletedRunsTerms(db)
}

/**
 * Keeps the terms of the runs completed now, from the features and customers as they are: as this
 * migration did, and as a restore of an archive from before it does (import-snapshot.ts).
 */
export async function keepCompletedRunsTerms(db: AnyDb): Promise<void> {
  const columns = sql.join([...KEYS, ...TERM_TEXT, ...TERM_MONEY].map((c) => sql.id(c)))
  const completed = sql<boolean>`i."billingRunID" in (select r.id from billing_runs r where r.status = 'Complete')`
  await sql`insert into commission_terms (${columns}) ${earningRows(completed)}`.execute(db)
}

/** The rows of the runs `runs` chooses that may earn, with their terms, as `earningRows` read them then. */
function earningRows(runs: RawBuilder<boolean>): RawBuilder<unknown> {
  const terms = sql.join([...TERM_TEXT, ...TERM_MONEY].map((c) => sql`f.${sql.id(c)}`))
  const holder = sql`coalesce(nullif(f."commissionHolder", ''), nullif(cu."commissionHolder", ''))`
  const common = (kind: RawBuilder<unknown>) =>
    sql`i."billingRunID", t.id, f.id, ${kind}, cu.id, cu."accountNumber", cu."commissionHolder", cu."commissionReferenceDate", coalesce(f."saleType", cu."saleType"), ${holder}, ${terms}`
  const onRuns = sql`join invoices i on i.id = t."invoiceID" and ${runs} and coalesce(i.status, '') <> 'Draft'`
  return sql`select ${common(sql`t.kind`)} from transactions t ${onRuns} join features f on f.id = t."featureID" join customers cu on cu.id = f."customerID"
      where t.kind is not null and (${holder} is not null or coalesce(f."commissionHolderID2", '') <> '')
    union all
    select ${common(sql`'calls'`)} from transactions t ${onRuns} join features f on f.id = ${callFeature} join customers cu on cu.id = f."customerID"
      where t."transactionType" = 'Call Charges' and ${holder} is not null`
}
