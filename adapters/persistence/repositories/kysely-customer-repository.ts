import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Item, Values } from '../../../core/fields/item.js'
import { ZERO } from '../../../core/money/money.js'
import { creditAlertNames } from '../../../core/presets/engine-lists.js'
import { KyselyResourceRepository } from './kysely-resource-repository.js'
import { CustomerConditions } from './customer-conditions.js'
import type { ListConditions } from './list-conditions.js'

const OVERDUE_ALERT = 'creditLimitOverdue'
/** The alerts after the overdue one in the contract's order: it goes in before the first of them. */
const AFTER_OVERDUE = creditAlertNames.slice(creditAlertNames.indexOf(OVERDUE_ALERT) + 1)

/**
 * Customers, with the read-only `balance` from the ledger and `overdueAmount` from its invoices. The balance is a correlated
 * subquery of the same select (on the transactions_customer_idx index), so reading a customer
 * or a page of them is one statement, not one for the rows and one for their balances. The
 * internal `heldCredit` is not read with them (`Receivables.heldCredits`).
 *
 * What is overdue is read against today (contract 17.6): `overdueAmount`, and the overdue alert
 * among the stored `creditAlerts`, are right whether or not the daily job has run; so is the
 * list filter `?creditAlert=` (`shownAlert`).
 */
export class KyselyCustomerRepository extends KyselyResourceRepository {
  override readonly conditions: ListConditions = new CustomerConditions(
    this.resource,
    this.codec,
    this.dialect,
    (name) => this.computedSql()[name],
    (name) => this.shownAlert(name),
  )

  protected override select(storedOnly = false): SelectQueryBuilder<any, any, any> {
    if (storedOnly) return super.select()
    return super.select().select([this.balance().as('balance'), this.overdueAmount().as('overdueAmount')])
  }

  override computedSql(): Record<string, RawBuilder<unknown>> {
    return { balance: this.balance(), overdueAmount: this.overdueAmount() }
  }

  override computedKey(): string {
    return this.today()
  }

  override listJsonOverrides(): Record<string, RawBuilder<unknown>> {
    return { creditAlerts: this.creditAlerts() }
  }

  private balance(): RawBuilder<string> {
    return sql<string>`(select coalesce(sum(t.amount) + sum(t.${sql.ref('VATAmount')}), 0) from transactions t where t.${sql.ref('customerID')} = ${sql.ref(`${this.table}.id`)})`
  }

  /**
   * The outstanding amounts of its overdue invoices (contract 10.3), summed where it is read like
   * the balance: an unpaid invoice is overdue once today is after its overdue date, so nothing
   * else is kept in step (a run whose invoices are overdue as they are raised writes no customer).
   * Today is written into the SQL, which is compiled anew each day (`computedKey`).
   */
  private overdueAmount(): RawBuilder<string> {
    return sql<string>`(select coalesce(sum(i.${sql.ref('amountOutstanding')}), 0) from invoices i where i.${sql.ref('customerID')} = ${sql.ref(`${this.table}.id`)} and i.status in ('Unpaid', 'Overdue') and i.${sql.ref('overdueDate')} < ${sql.lit(this.today())})`
  }

  /**
   * The stored alerts (a JSON array of names, as `JSON.stringify` writes it) with the overdue one
   * in or out by the overdue amount today: `withOverdueAlert` in SQL, for list pages.
   */
  private creditAlerts(): RawBuilder<string> {
    const alerts = sql.ref(`${this.table}.creditAlerts`)
    const limit = sql.ref(`${this.table}.${OVERDUE_ALERT}`)
    const name = `"${OVERDUE_ALERT}"`
    const without = sql`replace(replace(replace(${alerts}, ${sql.lit(`,${name}`)}, ''), ${sql.lit(`${name},`)}, ''), ${sql.lit(name)}, '')`
    const insertBefore = AFTER_OVERDUE.map((next) => sql`when ${alerts} like ${sql.lit(`%"${next}"%`)} then replace(${alerts}, ${sql.lit(`"${next}"`)}, ${sql.lit(`${name},"${next}"`)})`)
    // Appended by cutting the closing bracket off, not by replacing `]`, which a name may hold.
    const appended = sql`substr(${alerts}, 1, length(${alerts}) - 1) || ${sql.lit(`,${name}]`)}`
    const withIt = sql`case when ${alerts} like ${sql.lit(`%${name}%`)} then ${alerts} when ${alerts} is null or ${alerts} = '[]' then ${sql.lit(`[${name}]`)} ${sql.join(insertBefore, sql` `)} else ${appended} end`
    return sql<string>`case when ${limit} is null then ${alerts} when ${this.overdueAmount()} > ${limit} then ${withIt} else ${without} end`
  }

  /**
   * The customers that show `name` (null: any alert) as `finish` reads them, for `?creditAlert=`;
   * null for the names read as stored. Every write that moves the overdue amount measures the
   * alerts again; time alone raises it only when an invoice passes its overdue date before the
   * invoice-overdue job settles it (`Receivables.newlyOverdue`). So the customers looked at are
   * those with an alert stored (on customers_credit_alert_idx) and those with such an invoice (on
   * invoices_status_overdue_idx), not every customer (an ID walk would read them all to find a
   * few), and among them the overdue alert is read as an item reads it: a stored one that today's
   * amount no longer exceeds is not found.
   */
  private shownAlert(name: string | null): RawBuilder<boolean> | null {
    if (name !== null && name !== OVERDUE_ALERT) return null
    const alerts = sql.ref(`${this.table}.creditAlerts`)
    const limit = sql.ref(`${this.table}.${OVERDUE_ALERT}`)
    const quoted = `"${OVERDUE_ALERT}"`
    const stored = sql`c.${sql.ref('creditAlerts')} is not null and c.${sql.ref('creditAlerts')} <> '[]'`
    const unsettled = sql`select i.${sql.ref('customerID')} from invoices i where i.status = 'Unpaid' and i.${sql.ref('overdueDate')} < ${sql.lit(this.today())}`
    const candidates = sql`${sql.ref(`${this.table}.id`)} in (select c.id from ${sql.table(this.table)} c where ${stored} union all ${unsettled})`
    // As `finish`: without a limit the stored alert stands; with one, today's amount decides.
    const overdue = sql`((${limit} is null and ${alerts} like ${sql.lit(`%${quoted}%`)}) or (${limit} is not null and ${this.overdueAmount()} > ${limit}))`
    const others = sql`(${alerts} is not null and ${alerts} not in ('[]', ${sql.lit(`[${quoted}]`)}))`
    return sql<boolean>`(${candidates} and ${name === null ? sql`(${others} or ${overdue})` : overdue})`
  }

  /** Items read: the overdue alert in or out by today's overdue amount (`creditAlerts` for lists). */
  protected override async finish(items: Item[]): Promise<Item[]> {
    return items.map((item) => {
      const limit = item.creditLimitOverdue
      if (limit === null || limit === undefined) return item
      const alerts = (Array.isArray(item.creditAlerts) ? item.creditAlerts : []) as readonly string[]
      const over = (item.overdueAmount as bigint) > (limit as bigint)
      if (over === alerts.includes(OVERDUE_ALERT)) return item
      if (!over) return { ...item, creditAlerts: alerts.filter((n) => n !== OVERDUE_ALERT) }
      // In the contract's order: before the first alert that follows it, as the list SQL puts it.
      const at = alerts.findIndex((n) => (AFTER_OVERDUE as readonly string[]).includes(n))
      return { ...item, creditAlerts: at < 0 ? [...alerts, OVERDUE_ALERT] : [...alerts.slice(0, at), OVERDUE_ALERT, ...alerts.slice(at)] }
    })
  }

  /** A new customer has no credit alert (contract 10.6). */
  protected override insertValues(values: Values): Values {
    return { creditAlerts: [], ...values }
  }

  /**
   * A customer just inserted has no transactions yet, and its overdue alert is as a read gives
   * it (`finish`): a limit below zero is already passed by no overdue amount.
   */
  protected override async finishInserted(item: Item): Promise<Item> {
    return this.finish([{ ...item, balance: ZERO, overdueAmount: ZERO }]).then(([finished]) => finished)
  }

  /** Its columns are as sent, and its computed fields are zero (`finishInserted`). */
  protected override get knownBeforeInsert(): boolean {
    return true
  }
}
