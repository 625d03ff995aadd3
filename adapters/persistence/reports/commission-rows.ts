import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { fromUnits, type Money } from '../../../core/money/money.js'
import type { CommissionRow, CommissionSource, CommissionTerms, CommissionWindow } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/** Rows per page of each source. */
const PAGE = 5000

const TERM_TEXT = ['commissionHolder', 'connectionChargeCommissionType', 'serviceChargeCommissionType', 'commissionHolderID2', 'connectionChargeCommissionType2', 'serviceChargeCommissionType2', 'connectionChargeCommissionProfile', 'serviceChargeCommissionProfile', 'callChargeCommissionProfile', 'serviceChargeInterval', 'startDate'] as const
const TERM_MONEY = ['connectionChargeCommission', 'serviceChargeCommission', 'connectionChargeCommission2', 'serviceChargeCommission2'] as const

type Row = Record<string, unknown>

/** A call commission profile that earns something is set (`None` earns nothing). */
const callProfile = sql`coalesce(f."callChargeCommissionProfile", '') not in ('', 'None')`

/**
 * The four sources of a run's commission rows (see `Books.commissionRows`): charges and call
 * charges on its invoices, and the lines crediting either of the credit notes it claimed. Each is read by transaction
 * ID a page at a time; with a holder, from that holder's features (indexes of migration 0043)
 * to their rows, not the run's million rows to their features.
 */
export async function* commissionRows(db: Db, dialect: DatabaseDialect, window: CommissionWindow, holder: string | null): AsyncGenerator<readonly CommissionRow[]> {
  const run = dialect.encodeId(window.billingRunID)
  const holders =
    holder === null
      ? sql``
      : sql` and f.id in (select id from features where "commissionHolder" = ${holder} union all select id from features where "commissionHolderID2" = ${holder} union all select g.id from features g join customers k on k.id = g."customerID" where k."commissionHolder" = ${holder} and coalesce(g."commissionHolder", '') = '')`
  const onRun = sql`join invoices i on i.id = t."invoiceID" and i."billingRunID" = ${run} and coalesce(i.status, '') <> 'Draft'`
  // The lines of the credit notes the run claimed as it completed (core/billing/commission-credits.ts).
  const credits = sql`l."creditNoteID" in (select n.id from credit_notes n where n."commissionBillingRunID" = ${run})`
  const terms = sql.join([...TERM_TEXT, ...TERM_MONEY].map((c) => sql`f.${sql.id(c)} as ${sql.id(c)}`))
  const common = sql`cu.id as "customerID", cu."accountNumber" as "accountNumber", cu."commissionHolder" as "customerHolder", cu."commissionReferenceDate" as "commissionReferenceDate", f.id as "featureID", coalesce(f."saleType", cu."saleType") as "saleType", ${terms}`
  const sources: { source: CommissionSource; id: RawBuilder<unknown>; select: (after: RawBuilder<unknown>) => RawBuilder<Row> }[] = [
    {
      source: 'invoice',
      id: sql`t.id`,
      select: (after) =>
        sql<Row>`select t.id as "transactionID", t.kind as kind, t."transactionType" as "transactionType", t."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", t.amount as amount, null as "creditedAmount", ${common}
          from features f join transactions t on t."featureID" = f.id ${onRun} join customers cu on cu.id = f."customerID"
          where t.kind is not null${holders}${after} order by t.id limit ${PAGE}`,
    },
    {
      source: 'invoice',
      id: sql`t.id`,
      select: (after) =>
        sql<Row>`select t.id as "transactionID", 'calls' as kind, t."transactionType" as "transactionType", t."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", t.amount as amount, null as "creditedAmount", ${common}
          from features f join transactions t on t."numberID" = f."numberID" and t."transactionType" = 'Call Charges' ${onRun} join customers cu on cu.id = f."customerID"
          where ${callProfile}${holders}${after} order by t.id, f.id limit ${PAGE}`,
    },
    {
      source: 'creditNote',
      id: sql`l.id`,
      select: (after) =>
        sql<Row>`select l.id as "transactionID", t.kind as kind, t."transactionType" as "transactionType", l."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", l.amount as amount, t.amount as "creditedAmount", ${common}
          from transactions l join transactions t on t.id = l."creditedTransactionID" join features f on f.id = t."featureID" join customers cu on cu.id = f."customerID"
          where ${credits} and t.kind is not null${holders}${after} order by l.id limit ${PAGE}`,
    },
    {
      source: 'creditNote',
      id: sql`l.id`,
      select: (after) =>
        sql<Row>`select l.id as "transactionID", 'calls' as kind, t."transactionType" as "transactionType", l."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", l.amount as amount, t.amount as "creditedAmount", ${common}
          from transactions l join transactions t on t.id = l."creditedTransactionID" and t."transactionType" = 'Call Charges' join features f on f."numberID" = t."numberID" join customers cu on cu.id = f."customerID"
          where ${credits} and ${callProfile}${holders}${after} order by l.id, f.id limit ${PAGE}`,
    },
  ]
  const money = (v: unknown): Money | null => (v === null || v === undefined ? null : fromUnits(dialect.decodeBigint(v)))
  const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v))
  const decode = (source: CommissionSource, r: Row): CommissionRow => ({
    source,
    transactionID: String(r.transactionID),
    kind: r.kind as CommissionRow['kind'],
    transactionType: String(r.transactionType),
    transactionDate: String(r.transactionDate) as DateOnly,
    dateFrom: text(r.dateFrom) as DateOnly | null,
    dateTo: text(r.dateTo) as DateOnly | null,
    amount: money(r.amount)!,
    creditedAmount: money(r.creditedAmount),
    customerID: String(r.customerID),
    accountNumber: text(r.accountNumber),
    customerHolder: text(r.customerHolder),
    commissionReferenceDate: text(r.commissionReferenceDate) as DateOnly | null,
    featureID: String(r.featureID),
    saleType: text(r.saleType),
    terms: Object.fromEntries([...TERM_TEXT.map((c) => [c, text(r[c])]), ...TERM_MONEY.map((c) => [c, money(r[c])])]) as unknown as CommissionTerms,
  })
  for (const s of sources) {
    // A call charge is listed once per feature with a profile: the page's last row is a (transaction, feature) pair.
    for (let after: { t: string; f: string } | null = null; ; ) {
      const from = after === null ? sql`` : sql` and (${s.id} > ${dialect.encodeId(after.t)} or (${s.id} = ${dialect.encodeId(after.t)} and f.id > ${dialect.encodeId(after.f)}))`
      const rows: Row[] = (await s.select(from).execute(db)).rows
      if (rows.length === 0) break
      yield rows.map((r) => decode(s.source, r))
      if (rows.length < PAGE) break
      const last: Row = rows[rows.length - 1]
      after = { t: String(last.transactionID), f: String(last.featureID) }
    }
  }
}
