import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import { covers } from './call-coverage.js'

/**
 * A page of calls read as the table `calls` again (a common table expression `page`, its
 * conditions and paging already applied), beside each call's `Call Charges` row found for the
 * whole page at once: the rows of the page's customers whose ranges meet the page's starts are
 * read once (`cand`, one index range a customer in each month of transactions) and joined to
 * the page's calls, the first by mark kept (`cov`). The same row callTransaction finds call by
 * call (call-coverage.ts), which Postgres ran as a look-up a call in every month's partition
 * (about 30 µs a call; docs/scaling.md). Select `pageTransaction()` over it.
 */
export function fromCoveredPage(db: AnyDb, page: SelectQueryBuilder<any, any, any>): SelectQueryBuilder<any, any, any> {
  const unbilled = (p: string) => sql<boolean>`${sql.ref(`${p}.transactionID`)} is null and ${sql.ref(`${p}.rated`)} = 1 and ${sql.ref(`${p}.deleted`)} = 0`
  return (
    db
      // Materialized, both: Postgres would otherwise fold `cand` into the join and look rows up
      // call by call again, and read the page once for each time it is named.
      .with((w) => w('page').materialized(), () => page)
      .with(
        (w) => w('cand').materialized(),
        (d) =>
          d
            .selectFrom('transactions as cc')
            .select(['cc.id', 'cc.customerID', 'cc.numberID', 'cc.callsFrom', 'cc.callsTo', 'cc.callMark', 'cc.callIDs'])
            .where('cc.callsTo', 'is not', null)
            .where('cc.customerID', 'in', d.selectFrom('page as p').select('p.customerID').where(unbilled('p')))
            .where('cc.callsTo', '>=', d.selectFrom('page as p').select(sql`min(${sql.ref('p.startTime')})`.as('s')).where(unbilled('p')))
            .where('cc.callsFrom', '<=', d.selectFrom('page as p').select(sql`max(${sql.ref('p.startTime')})`.as('s')).where(unbilled('p'))),
      )
      .with('cov', (d) =>
        d
          .selectFrom('page as p')
          .innerJoin('cand as cc', (j) => j.on(covers('p')))
          .where(unbilled('p'))
          .select(['p.id', 'cc.id as tid', sql`row_number() over (partition by ${sql.ref('p.id')} order by ${sql.ref('cc.callMark')}, ${sql.ref('cc.id')})`.as('k')]),
      )
      .selectFrom('page as calls')
      .leftJoin('cov', (j) => j.onRef('cov.id', '=', 'calls.id').on('cov.k', '=', 1))
      // The page's order, which the join need not keep.
      .orderBy('calls.id')
  )
}

/** A listed call's `Call Charges` transaction ID over `fromCoveredPage`: stamped before migration 0045, or derived. */
export function pageTransaction(): RawBuilder<unknown> {
  return sql`coalesce(${sql.ref('calls.transactionID')}, ${sql.ref('cov.tid')})`
}

/**
 * The calls that some of the given `Call Charges` rows may have billed, as a condition on `calls`
 * (the table), found by the calls' customer, stamp and start (calls_customer_idx): calls stamped
 * with one of them before migration 0045, and unstamped calls of the rows' customers within
 * their ranges. Which of those the rows billed is `pageTransaction()` over `fromCoveredPage`.
 */
export function callsNear(ids: readonly unknown[]): RawBuilder<boolean> {
  const list = sql.join(ids.map((id) => sql`${id}`))
  const of = (what: RawBuilder<unknown>) => sql`(select ${what} from ${sql.table('transactions')} t where t.id in (${list}))`
  const c = (column: string) => sql.ref(`calls.${column}`)
  return sql<boolean>`${c('customerID')} in ${of(sql`t.${sql.ref('customerID')}`)}
    and (${c('transactionID')} in (${list}) or (${c('transactionID')} is null
      and ${c('startTime')} >= ${of(sql`min(t.${sql.ref('callsFrom')})`)} and ${c('startTime')} <= ${of(sql`max(t.${sql.ref('callsTo')})`)}))`
}
