import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Item, Values } from '../../../core/fields/item.js'
import { ZERO } from '../../../core/money/money.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'

/**
 * Customers, with the read-only `balance` from the ledger and `overdueAmount` from its invoices. The balance is a correlated
 * subquery of the same select (on the transactions_customer_idx index), so reading a customer
 * or a page of them is one statement, not one for the rows and one for their balances. The
 * internal `heldCredit` is not read with them (`Receivables.heldCredits`).
 */
export class KyselyCustomerRepository extends KyselyResourceRepository {
  protected override select(storedOnly = false): SelectQueryBuilder<any, any, any> {
    if (storedOnly) return super.select()
    return super.select().select([this.balance().as('balance'), this.overdueAmount().as('overdueAmount')])
  }

  override computedSql(): Record<string, RawBuilder<unknown>> {
    return { balance: this.balance(), overdueAmount: this.overdueAmount() }
  }

  private balance(): RawBuilder<string> {
    return sql<string>`(select coalesce(sum(t.amount) + sum(t.${sql.ref('VATAmount')}), 0) from transactions t where t.${sql.ref('customerID')} = ${sql.ref(`${this.table}.id`)})`
  }

  /**
   * The outstanding amounts of its overdue invoices (contract 10.3), summed where it is read like
   * the balance: an invoice's stored status says whether it is overdue, so nothing else is kept
   * in step (a run whose invoices are overdue as they are raised writes no customer).
   */
  private overdueAmount(): RawBuilder<string> {
    return sql<string>`(select coalesce(sum(i.${sql.ref('amountOutstanding')}), 0) from invoices i where i.${sql.ref('customerID')} = ${sql.ref(`${this.table}.id`)} and i.status = 'Overdue')`
  }

  /** A new customer has no credit alert (contract 10.6). */
  override insert(values: Values): Promise<Item> {
    return super.insert({ creditAlerts: [], ...values })
  }

  /** A customer just inserted has no transactions yet. */
  protected override async finishInserted(item: Item): Promise<Item> {
    return { ...item, balance: ZERO, overdueAmount: ZERO }
  }
}
