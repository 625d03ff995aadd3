import type { RawBuilder, SelectQueryBuilder } from 'kysely'
import { isIdList, type Parents } from '../../../core/ports/resource-repository.js'
import { callOnTransactions, callTransaction } from './call-coverage.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

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
