import type { RawBuilder, SelectQueryBuilder } from 'kysely'
import { isIdList, type Condition, type Parents } from '../../../core/ports/resource-repository.js'
import { callOnTransactions, callTransaction } from './call-coverage.js'
import { callsNear, fromCoveredPage, pageTransaction } from './call-page-coverage.js'
import type { Item, Values } from '../../../core/fields/item.js'
import { KyselyCallMarks } from './kysely-call-marks.js'
import { KyselyResourceRepository, type PageOf } from './kysely-resource-repository.js'

/**
 * Calls, with `transactionID` derived from the `Call Charges` rows (call-coverage.ts) wherever
 * a call is read or listed, or filtered on it: a billing run does not write its calls.
 */
export class KyselyCallRepository extends KyselyResourceRepository {
  protected override select(storedOnly = false): SelectQueryBuilder<any, any, any> {
    // The stored columns by name: the table still has the `transactionID` column runs stamped
    // before migration 0045, which the derived one replaces.
    const stored = this.db.selectFrom(this.table).select(this.resource.columns.map((f) => `${this.table}.${f.name}`))
    return storedOnly ? stored : stored.select(callTransaction(this.table).as('transactionID'))
  }

  /** A list's calls are read first, then their `Call Charges` rows for the page at once (call-page-coverage.ts). */
  protected override listQuery(page: PageOf, storedOnly = false): SelectQueryBuilder<any, any, any> {
    if (storedOnly) return super.listQuery(page, true)
    return this.coveredItems(page(this.db.selectFrom(this.table).selectAll(this.table)))
  }

  /** The calls of `calls` (a query of the table) as items, each with its `Call Charges` row found for all of them at once. */
  private coveredItems(calls: SelectQueryBuilder<any, any, any>): SelectQueryBuilder<any, any, any> {
    return fromCoveredPage(this.db, calls)
      .select(this.resource.columns.map((f) => `${this.table}.${f.name}`))
      .select(pageTransaction().as('transactionID'))
  }

  override listJsonFrom(page: PageOf): SelectQueryBuilder<any, any, any> {
    return fromCoveredPage(this.db, page(this.db.selectFrom(this.table).selectAll(this.table)))
  }

  override listJsonComputed(): Record<string, RawBuilder<unknown>> {
    return { transactionID: pageTransaction() }
  }

  /**
   * The calls of listed `Call Charges` rows (an invoice's itemisation): the calls they may have
   * billed are read first, then which of them each row billed, for all of them at once.
   */
  override async listIn(column: string, parents: Parents, where: readonly Condition[] = [], options: { readonly storedOnly?: boolean } = {}): Promise<Item[]> {
    if (column !== 'transactionID' || !isIdList(parents) || parents.length === 0 || options.storedOnly) return super.listIn(column, parents, where, options)
    const ids = parents.map((id) => this.dialect.encodeId(id))
    const near = this.conditions.apply(this.db.selectFrom(this.table).selectAll(this.table).where(callsNear(ids)), where)
    const rows = await this.coveredItems(near).where(pageTransaction(), 'in', ids).execute()
    return this.finish(rows.map((r) => this.codec.decode(r)))
  }

  /**
   * A call written one at a time (imports write theirs in bulk, rating-data.ts) is made billable
   * as an import's are: under the current call mark, its start noted (core/ports/call-marks.ts).
   */
  override async insert(values: Values): Promise<Item> {
    const marks = new KyselyCallMarks(this.db, this.dialect)
    const callMark = typeof values.callMark === 'number' ? values.callMark : await marks.current()
    const item = await super.insert({ ...values, callMark })
    if (typeof item.startTime === 'string') await marks.noteSince(callMark, item.startTime)
    return item
  }

  override computedSql(): Record<string, RawBuilder<unknown>> {
    return { transactionID: callTransaction(this.table) }
  }

  /** A listed set of transactions: found by the calls' customer and start first, not by deriving every call's. */
  override whereIn<Q extends SelectQueryBuilder<any, any, any>>(q: Q, column: string, parents: Parents): Q {
    if (column !== 'transactionID') return super.whereIn(q, column, parents)
    if (isIdList(parents)) return q.where(callOnTransactions(parents.map((id) => this.dialect.encodeId(id)), this.table)) as Q
    return q.where(callTransaction(this.table), 'in', this.peers(parents.resource).selectParents(parents)) as Q
  }
}
