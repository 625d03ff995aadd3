import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { accountCurrency, fromUnits, type Money } from '../../../core/money/money.js'
import type { CommissionRow, CommissionSource, CommissionTerms, CommissionWindow, CorrectedRow, ProfilePercents } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { correctedRows, correctionRows, CORRECTIONS, inRowOrder, refundedBefore } from './commission-corrections.js'
import { callFeature, PERCENTS_KEPT, TERM_MONEY, TERM_PERCENT, TERM_TEXT } from './commission-terms.js'

/** Rows per page of each source. */
const PAGE = 5000

type Row = Record<string, unknown>

interface Source {
  readonly source: CommissionSource
  /** The row's ID and its feature's, the order pages are read in. */
  readonly id: RawBuilder<unknown>
  readonly feature: RawBuilder<unknown>
  readonly select: (after: RawBuilder<unknown>) => RawBuilder<Row>
}

/**
 * The sources of a run's commission rows (see `Books.commissionRows`): the rows on its invoices,
 * and the lines crediting them of the credit notes it claimed. Each is read by transaction ID a
 * page at a time.
 *
 * A completed run's rows come with the terms kept as it completed (`commission_terms`,
 * commission-terms.ts; with their profiles' percentages then, since migration 0079), by its
 * holder's index there; a credit note line with those of the row it credits, whichever run
 * carried that (only a completed run claims notes, and a row no run kept terms for, as on an
 * invoice raised outside a run, earned nothing to claw back). A run not yet
 * complete reads its rows' features as they are now: with a holder, from that holder's features
 * (indexes of migration 0043) to their rows, not the run's million rows to their features.
 *
 * A refund or adjustment refund on the run claws back from the rows it corrects, on their kept
 * terms, whoever holds its feature at the run (contract 16.3): it is read apart, by the holders of
 * those rows (commission-corrections.ts), with them as `corrects`, and comes among the other
 * rows in transaction order; the kept and live sources leave it out.
 */
export async function* commissionRows(db: Db, dialect: DatabaseDialect, window: CommissionWindow, holder: string | null): AsyncGenerator<readonly CommissionRow[]> {
  const run = dialect.encodeId(window.billingRunID)
  const keptBy = (s: string) => (holder === null ? sql`` : sql` and (${sql.ref(`${s}.holder`)} = ${holder} or ${sql.ref(`${s}.commissionHolderID2`)} = ${holder})`)
  const keptTerms = (s: string) =>
    sql`${sql.ref(`${s}.customerID`)} as "customerID", ${sql.ref(`${s}.accountNumber`)} as "accountNumber", ${sql.ref(`${s}.customerHolder`)} as "customerHolder", ${sql.ref(`${s}.commissionReferenceDate`)} as "commissionReferenceDate", ${sql.ref(`${s}.featureID`)} as "featureID", ${sql.ref(`${s}.saleType`)} as "saleType", ${sql.join([...TERM_TEXT, ...TERM_MONEY, ...Object.values(TERM_PERCENT), PERCENTS_KEPT].map((c) => sql`${sql.ref(`${s}.${c}`)} as ${sql.id(c)}`))}`
  // The lines of the credit notes the run claimed as it completed (core/billing/commission-credits.ts).
  const credits: Source = {
    source: 'creditNote',
    id: sql`l.id`,
    feature: sql`s."featureID"`,
    select: (after) =>
      sql<Row>`select l.id as "transactionID", s.kind as kind, t."transactionType" as "transactionType", l."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", l.amount as amount, t.amount as "creditedAmount",
          (select coalesce(sum(e.amount), 0) from transactions e where e."creditedTransactionID" = l."creditedTransactionID" and e.id < l.id) as "creditedBefore",
          l."creditedTransactionID" as "creditedID", ${refundedBefore(run)} as "refundedBy", ${keptTerms('s')}
        from transactions l join commission_terms s on s."transactionID" = l."creditedTransactionID" join transactions t on t.id = l."creditedTransactionID"
        where l."creditNoteID" in (select n.id from credit_notes n where n."commissionBillingRunID" = ${run})${keptBy('s')}${after} order by l.id, s."featureID" limit ${PAGE}`,
  }
  const kept: Source = {
    source: 'invoice',
    id: sql`s."transactionID"`,
    feature: sql`s."featureID"`,
    select: (after) =>
      sql<Row>`select t.id as "transactionID", s.kind as kind, t."transactionType" as "transactionType", t."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", t.amount as amount, null as "creditedAmount", ${keptTerms('s')}
        from commission_terms s join transactions t on t.id = s."transactionID"
        where s."billingRunID" = ${run} and t."transactionType" not in ${CORRECTIONS}${keptBy('s')}${after} order by s."transactionID", s."featureID" limit ${PAGE}`,
  }
  const corrections: Source = { source: 'invoice', id: sql`x.id`, feature: sql`x."featureID"`, select: (after) => correctionRows(run, holder, after, PAGE) }
  const [first, ...rest] = window.complete ? [kept, credits] : [...liveSources(run, holder), credits]
  const money = (v: unknown): Money | null => (v === null || v === undefined ? null : fromUnits(dialect.decodeBigint(v)))
  const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v))
  // Kept with the terms since migration 0079; none on a live row (not selected) or one kept before.
  const percents = (r: Row): ProfilePercents | null =>
    r[PERCENTS_KEPT] === null || r[PERCENTS_KEPT] === undefined ? null : (Object.fromEntries(Object.entries(TERM_PERCENT).map(([term, c]) => [term, money(r[c])])) as unknown as ProfilePercents)
  // The customers' currencies (`accountCurrency`), read once a customer as its rows' pages come.
  const currencies = new Map<string, string>()
  const readCurrencies = async (rows: readonly Row[]) => {
    const ids = [...new Set(rows.map((r) => String(r.customerID)).filter((id) => !currencies.has(id)))]
    for (let at = 0; at < ids.length; at += 500) {
      const slice = ids.slice(at, at + 500)
      const found = (await sql<{ id: unknown; currency: unknown }>`select id, currency from customers where ${dialect.inList('id', slice.map(Number))}`.execute(db)).rows
      const byID = new Map(found.map((c) => [String(c.id), text(c.currency)]))
      for (const id of slice) currencies.set(id, accountCurrency(byID.get(id) ?? null))
    }
  }
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
    creditedBefore: money(r.creditedBefore),
    // Filled in by `withRefunds` (the correction's ID only until then).
    refundedBefore:
      r.refundedBy === null || r.refundedBy === undefined
        ? undefined
        : { creditedID: String(r.creditedID), correction: { transactionID: String(r.refundedBy), transactionType: '', amount: 0n as Money, earning: null }, corrects: [] },
    customerID: String(r.customerID),
    currency: currencies.get(String(r.customerID)) ?? accountCurrency(null),
    accountNumber: text(r.accountNumber),
    customerHolder: text(r.customerHolder),
    commissionReferenceDate: text(r.commissionReferenceDate) as DateOnly | null,
    featureID: String(r.featureID),
    saleType: text(r.saleType),
    terms: {
      ...(Object.fromEntries([...TERM_TEXT.map((c) => [c, text(r[c])]), ...TERM_MONEY.map((c) => [c, money(r[c])])]) as unknown as Omit<CommissionTerms, 'profilePercents'>),
      profilePercents: percents(r),
    },
  })
  async function* pages(s: Source): AsyncGenerator<readonly CommissionRow[]> {
    // A page's last row is a (transaction, feature) pair: the next page starts after it.
    for (let after: { t: string; f: string } | null = null; ; ) {
      const from = after === null ? sql`` : sql` and (${s.id} > ${dialect.encodeId(after.t)} or (${s.id} = ${dialect.encodeId(after.t)} and ${s.feature} > ${dialect.encodeId(after.f)}))`
      const rows: Row[] = (await s.select(from).execute(db)).rows
      if (rows.length === 0) break
      await readCurrencies(rows)
      yield rows.map((r) => decode(s.source, r))
      if (rows.length < PAGE) break
      const last: Row = rows[rows.length - 1]
      after = { t: String(last.transactionID), f: String(last.featureID) }
    }
  }
  // Corrections `ids` with the rows each corrects and the credit note lines on them before it, with their kept terms as a credited row's (none kept: it earned nothing).
  async function corrected(ids: readonly string[]): Promise<Map<string, { correction: CorrectedRow; corrects: CorrectedRow[] }>> {
    const out = new Map<string, { correction: CorrectedRow; corrects: CorrectedRow[] }>()
    for (let at = 0; at < ids.length; at += 500) {
      const found = (await correctedRows(run, ids.slice(at, at + 500).map((id) => dialect.encodeId(id)), keptTerms('s')).execute(db)).rows
      await readCurrencies(found.filter((r) => r.keptID !== null && r.keptID !== undefined))
      for (const r of found) {
        const id = String(r.correctionID)
        const x = out.get(id) ?? { correction: { transactionID: id, transactionType: String(r.correctionType), amount: money(r.correctionAmount)!, credits: [], earning: null }, corrects: [] }
        out.set(id, x)
        // A row a credit note line on it (rows in order): the first of a corrected row's starts it.
        const last = x.corrects[x.corrects.length - 1]
        const row =
          last?.transactionID === String(r.transactionID)
            ? last
            : { transactionID: String(r.transactionID), transactionType: String(r.transactionType), amount: money(r.amount)!, credits: [], earning: r.keptID === null || r.keptID === undefined ? null : decode('invoice', r) }
        if (row !== last) x.corrects.push(row)
        if (r.creditID !== null && r.creditID !== undefined) (row.credits as { transactionID: string; amount: Money }[]).push({ transactionID: String(r.creditID), amount: money(r.creditAmount)! })
      }
    }
    return out
  }
  // Each correction with the rows it corrects.
  async function* withCorrected(source: AsyncIterable<readonly CommissionRow[]>): AsyncGenerator<readonly CommissionRow[]> {
    for await (const page of source) {
      const found = await corrected(page.map((r) => r.transactionID))
      yield page.map((r) => ({ ...r, corrects: found.get(r.transactionID)?.corrects ?? [] }))
    }
  }
  // Each credit note line on a row refunded before it with the latest such refund and the rows it corrects.
  async function* withRefunds(source: AsyncIterable<readonly CommissionRow[]>): AsyncGenerator<readonly CommissionRow[]> {
    for await (const page of source) {
      const by = new Map(page.flatMap((r) => (r.refundedBefore ? [[r.transactionID, r.refundedBefore.correction.transactionID] as const] : [])))
      if (by.size === 0) {
        yield page
        continue
      }
      const found = await corrected([...new Set(by.values())])
      yield page.map((r) => {
        const x = by.has(r.transactionID) ? found.get(by.get(r.transactionID)!) : undefined
        return x ? { ...r, refundedBefore: { ...r.refundedBefore!, ...x } } : { ...r, refundedBefore: undefined }
      })
    }
  }
  yield* inRowOrder(pages(first), withCorrected(pages(corrections)))
  for (const s of rest) yield* s === credits ? withRefunds(pages(s)) : pages(s)
}

/** The rows on a run's final invoices with their features' terms now: charges, and call charges with the feature `callFeature` finds. */
function liveSources(run: unknown, holder: string | null): Source[] {
  const holders =
    holder === null
      ? sql``
      : sql` and f.id in (select id from features where "commissionHolder" = ${holder} union all select id from features where "commissionHolderID2" = ${holder} union all select g.id from features g join customers k on k.id = g."customerID" where k."commissionHolder" = ${holder} and coalesce(g."commissionHolder", '') = '')`
  const onRun = sql`join invoices i on i.id = t."invoiceID" and i."billingRunID" = ${run} and coalesce(i.status, '') <> 'Draft'`
  const terms = sql.join([...TERM_TEXT, ...TERM_MONEY].map((c) => sql`f.${sql.id(c)} as ${sql.id(c)}`))
  const common = sql`cu.id as "customerID", cu."accountNumber" as "accountNumber", cu."commissionHolder" as "customerHolder", cu."commissionReferenceDate" as "commissionReferenceDate", f.id as "featureID", coalesce(f."saleType", cu."saleType") as "saleType", ${terms}`
  const row = sql`t.id as "transactionID", t."transactionType" as "transactionType", t."transactionDate" as "transactionDate", t."dateFrom" as "dateFrom", t."dateTo" as "dateTo", t.amount as amount, null as "creditedAmount"`
  return [
    {
      source: 'invoice',
      id: sql`t.id`,
      feature: sql`f.id`,
      select: (after) =>
        sql<Row>`select ${row}, t.kind as kind, ${common}
          from features f join transactions t on t."featureID" = f.id ${onRun} join customers cu on cu.id = f."customerID"
          where t.kind is not null and t."transactionType" not in ${CORRECTIONS}${holders}${after} order by t.id limit ${PAGE}`,
    },
    {
      source: 'invoice',
      id: sql`t.id`,
      feature: sql`f.id`,
      select: (after) =>
        sql<Row>`select ${row}, 'calls' as kind, ${common}
          from transactions t ${onRun} join features f on f.id = ${callFeature} join customers cu on cu.id = f."customerID"
          where t."transactionType" = 'Call Charges'${holders}${after} order by t.id, f.id limit ${PAGE}`,
    },
  ]
}
