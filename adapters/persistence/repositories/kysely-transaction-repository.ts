import type { SelectQueryBuilder, RawBuilder } from 'kysely'
import type { Item } from '../../../core/fields/item.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { ListConditions } from './list-conditions.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'
import { approvedIs, approvedSql } from './draft-lines.js'

/** Invoice IDs a read of draft invoices names at once. */
const CHUNK = 1_000

/**
 * Transactions, whose `approved` reads false while their invoice is a draft (contract 16.1):
 * the rows of a review run's drafts are stored approved and on them (draft-lines.ts), so the
 * approval writes no row. Items read are corrected here, list JSON and filters in SQL.
 */
export class KyselyTransactionRepository extends KyselyResourceRepository {
  override readonly conditions: ListConditions = new ApprovalConditions(this.resource, this.codec, this.dialect)

  override listJsonOverrides(): Record<string, RawBuilder<unknown>> {
    return { approved: approvedSql(this.table) }
  }

  protected override async finish(items: Item[]): Promise<Item[]> {
    const invoices = [...new Set(items.filter((i) => i.approved === true && i.invoiceID != null).map((i) => String(i.invoiceID)))]
    const drafts = new Set<string>()
    for (let i = 0; i < invoices.length; i += CHUNK) {
      const ids = invoices.slice(i, i + CHUNK).map((id) => this.dialect.encodeId(id))
      const rows = await this.db.selectFrom('invoices').select('id').where('status', '=', 'Draft').where('id', 'in', ids).execute()
      for (const r of rows) drafts.add(String(r.id))
    }
    if (drafts.size === 0) return items
    return items.map((i) => (i.approved === true && drafts.has(String(i.invoiceID)) ? { ...i, approved: false } : i))
  }
}

/** The list conditions of transactions, `approved` read as the contract tells it. */
class ApprovalConditions extends ListConditions {
  override apply<Q extends SelectQueryBuilder<any, any, any>>(q: Q, where: readonly Condition[]): Q {
    const rest: Condition[] = []
    for (const c of where) {
      if (c.column === 'approved' && c.op === 'eq' && typeof c.value === 'boolean') q = q.where(approvedIs('transactions', c.value)) as Q
      else rest.push(c)
    }
    return super.apply(q, rest)
  }
}
