import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../schema/tables.js'

/**
 * Which `Call Charges` row billed a call, in SQL, derived from what the row records (core/billing/
 * bill-calls.ts) instead of stamped on the call by the run: a run then writes a row per number,
 * not a new version of each of its calls (docs/scaling.md).
 *
 * A row covers the rated, undeleted calls of its customer and number that started from its
 * `callsFrom` to its `callsTo` and were marked below its `callMark` (core/ports/call-marks.ts),
 * or, when it lists `callIDs`, only those. A call two rows could claim (a late call a later run
 * billed, inside the range of an earlier one) is the earlier row's only if that row's mark was
 * above the call's; otherwise the later row's: the first row, by mark, that covers it. Calls a
 * run stamped before migration 0045 keep the ID it stamped (`calls.transactionID`, never
 * written since), and the rows of those runs cover nothing by range.
 */
export const covers = (call: string): RawBuilder<boolean> => {
  const c = (column: string) => sql.ref(`${call}.${column}`)
  // The number's equality before the range: where Postgres joins a page of calls to their
  // customers' rows by a nested loop (call-page-coverage.ts), another number's row fails first.
  return sql<boolean>`cc.${sql.ref('customerID')} = ${c('customerID')}
    and coalesce(cc.${sql.ref('numberID')}, 0) = coalesce(${c('numberID')}, 0)
    and cc.${sql.ref('callsTo')} >= ${c('startTime')} and cc.${sql.ref('callsFrom')} <= ${c('startTime')}
    and cc.${sql.ref('callMark')} > coalesce(${c('callMark')}, 0)
    and (cc.${sql.ref('callIDs')} is null or cc.${sql.ref('callIDs')} like '%,' || ${c('id')} || ',%')`
}

/** The call's `Call Charges` transaction ID, or null while no run has billed it. */
export function callTransaction(call = 'calls'): RawBuilder<unknown> {
  const c = (column: string) => sql.ref(`${call}.${column}`)
  return sql`coalesce(${c('transactionID')}, case when ${c('rated')} = 1 and ${c('deleted')} = 0 then (select cc.id from ${sql.table('transactions')} cc where ${covers(call)} order by cc.${sql.ref('callMark')}, cc.id limit 1) end)`
}

/**
 * Each customer's latest covered start (`lastTo`, the greatest `callsTo` of its rows) among the
 * customers `customers` names (a condition on `transactions.customerID`), to join as `cov` beside
 * their calls for `callUnbilled`.
 */
export function latestCovered(db: Db, customers: RawBuilder<boolean>) {
  return db
    .selectFrom('transactions')
    .select(['transactions.customerID', sql`max(${sql.ref('transactions.callsTo')})`.as('lastTo')])
    .where('transactions.callsTo', 'is not', null)
    .where(customers)
    .groupBy('transactions.customerID')
}

/**
 * The call is billed by no run yet (rated and undeleted or not: the caller says which it reads),
 * for calls read beside `cov`, their customer's latest covered start (`lastTo`, the greatest
 * `callsTo` of its rows; null when it has none). A call started after it is unbilled without
 * looking for a row: Postgres looked one up per call, most of a preview's time for a customer of
 * 5,000 calls (bench/invoice-preview.ts: p50 132 → 38 ms).
 */
export function callUnbilled(call = 'calls', cov = 'cov'): RawBuilder<boolean> {
  const lastTo = sql.ref(`${cov}.lastTo`)
  return sql<boolean>`${sql.ref(`${call}.transactionID`)} is null and (${lastTo} is null or ${sql.ref(`${call}.startTime`)} > ${lastTo}
    or not exists (select 1 from ${sql.table('transactions')} cc where ${covers(call)}))`
}

/**
 * The calls some of the given `Call Charges` rows billed, as a condition that finds them by the
 * calls' customer, stamp and start (calls_customer_idx) before it derives each one's row: calls
 * stamped with one of them before migration 0045, and those the rows cover by range.
 */
export function callOnTransactions(ids: readonly unknown[], call = 'calls'): RawBuilder<boolean> {
  const c = (column: string) => sql.ref(`${call}.${column}`)
  const list = sql.join(ids.map((id) => sql`${id}`))
  const of = (what: RawBuilder<unknown>) => sql`(select ${what} from ${sql.table('transactions')} t where t.id in (${list}))`
  return sql<boolean>`${c('customerID')} in ${of(sql`t.${sql.ref('customerID')}`)}
    and (${c('transactionID')} in (${list}) or (${c('transactionID')} is null
      and ${c('startTime')} >= ${of(sql`min(t.${sql.ref('callsFrom')})`)} and ${c('startTime')} <= ${of(sql`max(t.${sql.ref('callsTo')})`)}
      and ${callTransaction(call)} in (${list})))`
}
