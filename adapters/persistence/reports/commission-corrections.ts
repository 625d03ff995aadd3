import { sql, type RawBuilder } from 'kysely'
import { transactionTypeNames } from '../../../core/billing/ledger-row.js'
import type { CommissionRow } from '../../../core/ports/books.js'
import { compareIds } from '../id-order.js'
import { approvedIs } from '../repositories/draft-lines.js'

/** The rows that correct a period's approved charges downwards: their clawbacks are worked out from the rows they correct. */
export const CORRECTIONS = sql`(${sql.join([transactionTypeNames.refund, transactionTypeNames.adjustmentRefund].map((t) => sql.lit(t)))})`

/**
 * Joins `p`, the rows correction `x` corrects: its feature's rows of its kind and series within its
 * span (a refund spans the approved rows it refunds, an adjustment those and the charges expected),
 * written before it (IDs are taken in order), approved, or on run `run`'s invoices as `x` is.
 */
export const correctedBy = (run: unknown) =>
  sql`join transactions p on p."featureID" = x."featureID" and p.kind = x.kind and p.series = x.series and p."dateFrom" >= x."dateFrom" and p."dateTo" <= x."dateTo" and p.id < x.id
    and (${approvedIs('p', true)} or p."invoiceID" in (select r.id from invoices r where r."billingRunID" = ${run}))`

/** The run's final invoices, joined to their rows `x`. */
const onRun = (run: unknown) => sql`join invoices i on i.id = x."invoiceID" and i."billingRunID" = ${run} and coalesce(i.status, '') <> 'Draft'`

/**
 * The run's refunds and adjustment refunds `x` that correct rows kept for `holder` (for anyone
 * when null), read by `x.id` after `after`. With a holder, found from that holder's kept rows
 * (commission_terms `s`, by the holder indexes of migration 0071, run by run) to the corrections
 * of their periods, not from the run's every row.
 */
export function correctionRows(run: unknown, holder: string | null, after: RawBuilder<unknown>, page: number): RawBuilder<Record<string, unknown>> {
  const columns = sql`x.id as "transactionID", x.kind as kind, x."transactionType" as "transactionType", x."transactionDate" as "transactionDate", x."dateFrom" as "dateFrom", x."dateTo" as "dateTo", x.amount as amount, null as "creditedAmount", x."customerID" as "customerID", x."featureID" as "featureID"`
  const kept = (column: string) =>
    sql`select y.id from commission_terms s join transactions q on q.id = s."transactionID"
      join transactions y on y."featureID" = q."featureID" and y.kind = q.kind and y.series = q.series and y."dateFrom" <= q."dateFrom" and y."dateTo" >= q."dateTo" and y.id > q.id and y."transactionType" in ${CORRECTIONS}
      where s."billingRunID" in (select b.id from billing_runs b) and ${sql.ref(`s.${column}`)} = ${holder}`
  const mine = holder === null ? sql`` : sql` and x.id in (${kept('holder')} union ${kept('commissionHolderID2')})`
  return sql<Record<string, unknown>>`select ${columns} from transactions x ${onRun(run)}
    where x.kind is not null and x."transactionType" in ${CORRECTIONS}${mine}${after} order by x.id limit ${page}`
}

/**
 * The rows each of corrections `ids` corrects (`correctedBy`), in ledger order, with the terms kept
 * for them (`kept`: the columns of commission_terms `s`, null where none were kept), a row a credit
 * note line written on it before the correction (`creditID`, `creditAmount`; a row with none when
 * none was), in ledger order too; and the correction's own type and net.
 */
export function correctedRows(run: unknown, ids: readonly unknown[], kept: RawBuilder<unknown>): RawBuilder<Record<string, unknown>> {
  return sql<Record<string, unknown>>`select x.id as "correctionID", x."transactionType" as "correctionType", x.amount as "correctionAmount", p.id as "transactionID", p.kind as kind, p."transactionType" as "transactionType", p."transactionDate" as "transactionDate", p."dateFrom" as "dateFrom", p."dateTo" as "dateTo", p.amount as amount,
      e.id as "creditID", e.amount as "creditAmount", s."transactionID" as "keptID", ${kept}
    from transactions x ${correctedBy(run)} left join commission_terms s on s."transactionID" = p.id and s."featureID" = p."featureID"
      left join transactions e on e."creditedTransactionID" = p.id and e.id < x.id
    where x.id in (${sql.join(ids)}) order by x.id, p.id, e.id`
}

/**
 * The latest refund or adjustment refund written before credit note line `l` that corrects the
 * row it credits, `t` (as `correctedBy` finds them: `t` within its span), approved or on run
 * `run`'s invoices; null where none is.
 */
export const refundedBefore = (run: unknown) =>
  sql`(select max(y.id) from transactions y where y."featureID" = t."featureID" and y.kind = t.kind and y.series = t.series and y."dateFrom" <= t."dateFrom" and y."dateTo" >= t."dateTo"
      and y.id > t.id and y.id < l.id and y."transactionType" in ${CORRECTIONS} and (${approvedIs('y', true)} or y."invoiceID" in (select r.id from invoices r where r."billingRunID" = ${run})))`

/** The holders (`column` of the kept terms) of the rows the run's corrections correct. */
export const correctedHolders = (run: unknown, column: 'holder' | 'commissionHolderID2') =>
  sql`select ${sql.ref(`s.${column}`)} as h from transactions x ${onRun(run)} ${correctedBy(run)} join commission_terms s on s."transactionID" = p.id
    where x.kind is not null and x."transactionType" in ${CORRECTIONS}`

/** A row's place in the order the sources are read in: transaction, then feature. */
const compareRows = (a: CommissionRow, b: CommissionRow): number => compareIds(a.transactionID, b.transactionID) || compareIds(a.featureID, b.featureID)

/**
 * Two sources' pages, each in row order, as one in row order: so the corrections read apart
 * still come among the run's other rows in transaction order.
 */
export async function* inRowOrder(a: AsyncIterable<readonly CommissionRow[]>, b: AsyncIterable<readonly CommissionRow[]>): AsyncGenerator<readonly CommissionRow[]> {
  const sources = [a[Symbol.asyncIterator](), b[Symbol.asyncIterator]()]
  const held: CommissionRow[][] = [[], []]
  const done = [false, false]
  for (;;) {
    for (const i of [0, 1]) {
      if (held[i].length === 0 && !done[i]) {
        const next = await sources[i].next()
        if (next.done) done[i] = true
        else held[i] = [...next.value]
      }
    }
    if (held[0].length === 0 || held[1].length === 0) {
      const rest = held[0].length ? 0 : 1
      if (held[rest].length === 0) return
      yield held[rest]
      held[rest] = []
      continue
    }
    // Every row up to the lower of the two pages' last rows: one page is then used up and read again.
    const last = [held[0][held[0].length - 1], held[1][held[1].length - 1]]
    const limit = compareRows(last[0], last[1]) <= 0 ? last[0] : last[1]
    const take = (i: number) => {
      let n = 0
      while (n < held[i].length && compareRows(held[i][n], limit) <= 0) n++
      return held[i].splice(0, n)
    }
    yield [...take(0), ...take(1)].sort(compareRows)
  }
}
