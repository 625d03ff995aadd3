import type { Db, Integer } from '../schema/tables.js'
import { sql } from 'kysely'
import type { CreditFigures, SpendMeasure } from '../../../core/ports/credit-control.js'
import { ZERO, type Money } from '../../../core/money/money.js'
import type { CreditControl, StoredAlerts } from '../../../core/ports/credit-control.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { moneyColumn } from '../money-column.js'
import { systemToday, type Today } from './kysely-resource-repository.js'
import { callUnbilled, latestCovered } from './call-coverage.js'
import { approvedIs } from './draft-lines.js'

const CHUNK = 500

/**
 * Whether a customer row (as `alias`) has a credit limit or a stored alert of its own, the
 * adapter's one statement of `hasCreditLimits` (core/credit/credit-alerts.ts): read by
 * `withCreditLimits` and by rating's joined number lookup.
 */
export const creditWatched = (alias: string) => {
  const c = (column: string) => sql.ref(`${alias}.${column}`)
  return sql<boolean>`(${c('expectedSpend')} is not null or ${c('creditLimit')} is not null or ${c('creditLimitCalls')} is not null or ${c('creditLimitOverdue')} is not null or ${c('creditLimitUnsent')} is not null or (${c('creditAlerts')} is not null and ${c('creditAlerts')} <> '[]'))`
}

/** A number whose calls some alert measures: a credit limit (10.6) or an expected spend (17.7), each on its partial index. */
const watchedNumber = sql<boolean>`(${sql.ref('creditLimit')} is not null or ${sql.ref('expectedSpend')} is not null)`

/** A number measured: watched, or marked over a limit since removed (so the mark is cleared), also on its partial index. */
const measuredNumber = sql<boolean>`(${sql.ref('creditLimit')} is not null or ${sql.ref('expectedSpend')} is not null or ${sql.ref('overCreditLimit')} = 1)`

/**
 * The cost (`total`) of the rated, undeleted calls no run has billed yet, by customer and number,
 * of the customers `ids` (encoded): what `creditLimitCalls` measures besides unapproved `Call
 * Charges` rows, and what an automatic top-up takes off a customer's funds (kysely-auto-topups.ts).
 */
export function unbilledCallCosts(db: Db, ids: readonly Integer[]) {
  // Each customer's latest covered start: calls after it need no look-up of their row (call-coverage.ts).
  const ends = latestCovered(db, sql<boolean>`${sql.ref('transactions.customerID')} in (${sql.join(ids)})`)
  return db
    .selectFrom('calls')
    .leftJoin(ends.as('cov'), 'cov.customerID', 'calls.customerID')
    .select(['calls.customerID', 'calls.numberID', sql<string>`sum(${sql.ref('calls.cost')})`.as('total')])
    .where('calls.customerID', 'in', ids)
    .where('calls.rated', '=', 1)
    .where('calls.deleted', '=', 0)
    .where(callUnbilled('calls', 'cov'))
    .groupBy(['calls.customerID', 'calls.numberID'])
}

/** Credit control on the `customers`, `numbers`, `transactions`, `invoices` and `calls` tables. */
export class KyselyCreditControl implements CreditControl {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    /** Overdue is read against it (contract 17.6): the stored status may wait for the daily job. */
    private readonly today: Today = systemToday,
  ) {}

  private money(v: unknown): Money {
    return moneyColumn(this.dialect, v)
  }

  async creditFigures(customerIDs: readonly string[], spend: SpendMeasure | null): Promise<Map<string, CreditFigures>> {
    type Number = { creditLimit: Money | null; unbilledCalls: Money; expectedSpend: Money | null; monthCalls: Money; id: string; overCreditLimit: boolean }
    type Mutable = { -readonly [K in Exclude<keyof CreditFigures, 'numbers'>]: CreditFigures[K] } & { numbers: Number[] }
    const out = new Map<string, Mutable>()
    const limit = (v: unknown) => (v === null || v === undefined ? null : this.money(v))
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const customers = await this.db
        .selectFrom('customers')
        .select(['id', 'creditLimit', 'creditLimitCalls', 'creditLimitOverdue', 'creditLimitUnsent', 'creditAlerts', 'expectedSpend', 'spendAlertMonth'])
        .where('id', 'in', ids)
        .execute()
      for (const r of customers) {
        out.set(String(r.id), {
          creditLimit: limit(r.creditLimit),
          creditLimitCalls: limit(r.creditLimitCalls),
          creditLimitOverdue: limit(r.creditLimitOverdue),
          creditLimitUnsent: limit(r.creditLimitUnsent),
          balance: ZERO,
          unbilledCalls: ZERO,
          overdueAmount: ZERO,
          unsent: ZERO,
          numbers: [],
          expectedSpend: limit(r.expectedSpend),
          monthCalls: ZERO,
          stored: r.creditAlerts ? (JSON.parse(String(r.creditAlerts)) as string[]) : [],
          spendAlertMonth: r.spendAlertMonth ?? null,
        })
      }
      const sums = async (q: any, apply: (f: Mutable, r: any) => void) => {
        for (const r of await q.execute()) {
          const f = out.get(String(r.customerID))
          if (f) apply(f, r)
        }
      }
      // Only the figures some limit measures are summed (a billing run measures many customers).
      const chunk = customerIDs.slice(i, i + CHUNK)
      const having = (test: (f: Mutable) => boolean) => chunk.filter((id) => out.has(id) && test(out.get(id)!)).map((id) => this.dialect.encodeId(id))
      const balanceIDs = having((f) => f.creditLimit !== null)
      if (balanceIDs.length) {
        await sums(
          this.db.selectFrom('transactions').select(['customerID', sql<string>`sum(amount) + sum(${sql.ref('VATAmount')})`.as('total')]).where('customerID', 'in', balanceIDs).groupBy('customerID'),
          (f, r) => (f.balance = this.money(r.total ?? 0)),
        )
      }
      const overdueIDs = having((f) => f.creditLimitOverdue !== null)
      if (overdueIDs.length) {
        await sums(
          this.db
            .selectFrom('invoices')
            .select(['customerID', sql<string>`sum(${sql.ref('amountOutstanding')})`.as('total')])
            .where('customerID', 'in', overdueIDs)
            .where('status', 'in', ['Unpaid', 'Overdue'])
            .where('overdueDate', '<', this.today())
            .groupBy('customerID'),
          (f, r) => (f.overdueAmount = this.money(r.total ?? 0)),
        )
      }
      const unsentIDs = having((f) => f.creditLimitUnsent !== null)
      if (unsentIDs.length) {
        await sums(
          this.db.selectFrom('invoices').select(['customerID', sql<string>`sum(${sql.ref('totalAmount')})`.as('total')]).where('customerID', 'in', unsentIDs)
            // Unsent (contract 14.2): no delivery sent yet; a suppressed invoice is never to be sent.
            .where('sentDate', 'is', null)
            .where('suppressed', '=', 0)
            // Nor is a draft until its run is approved (contract 16.1).
            .where((eb) => eb.or([eb('status', 'is', null), eb('status', '<>', 'Draft')]))
            .groupBy('customerID'),
          (f, r) => (f.unsent = this.money(r.total ?? 0)),
        )
      }
      const numbers = await this.db.selectFrom('numbers').select(['id', 'customerID', 'creditLimit', 'expectedSpend', 'overCreditLimit']).where('customerID', 'in', ids).where(measuredNumber).execute()
      for (const r of numbers) {
        const n = { id: String(r.id), creditLimit: limit(r.creditLimit), unbilledCalls: ZERO, expectedSpend: limit(r.expectedSpend), monthCalls: ZERO, overCreditLimit: Number(r.overCreditLimit) === 1 }
        out.get(String(r.customerID))?.numbers.push(n)
      }
      // The month's call charges (contract 17.7), billed or not: the cost of its rated calls,
      // which keep their cost once a run bills them.
      const spendIDs = spend ? having((f) => f.expectedSpend !== null || f.numbers.some((n) => n.expectedSpend !== null)) : []
      if (spend && spendIDs.length) {
        await sums(
          this.db
            .selectFrom('calls')
            .select(['customerID', 'numberID', sql<string>`sum(cost)`.as('total')])
            .where('customerID', 'in', spendIDs)
            .where('startTime', '>=', spend.from)
            .where('startTime', '<', spend.to)
            .where('rated', '=', 1)
            .where('deleted', '=', 0)
            .groupBy(['customerID', 'numberID']),
          (f, r) => {
            const amount = this.money(r.total ?? 0)
            f.monthCalls = (f.monthCalls + amount) as Money
            const n = r.numberID === null ? undefined : f.numbers.find((x) => x.id === String(r.numberID))
            if (n) n.monthCalls = (n.monthCalls + amount) as Money
          },
        )
      }
      const callIDs = having((f) => f.creditLimitCalls !== null || f.numbers.some((n) => n.creditLimit !== null))
      if (callIDs.length === 0) continue
      // Unbilled call charges: unapproved Call Charges rows, and rated calls no run has billed yet.
      const addCalls = (f: Mutable, r: any) => {
        const amount = this.money(r.total ?? 0)
        f.unbilledCalls = (f.unbilledCalls + amount) as Money
        const n = r.numberID === null ? undefined : f.numbers.find((x) => x.id === String(r.numberID))
        if (n) n.unbilledCalls = (n.unbilledCalls + amount) as Money
      }
      await sums(
        this.db
          .selectFrom('transactions')
          .select(['customerID', 'numberID', sql<string>`sum(amount)`.as('total')])
          .where('customerID', 'in', callIDs)
          .where('transactionType', '=', 'Call Charges')
          // A draft's (contract 16.1) are not billed until its run is approved.
          .where(approvedIs('transactions', false))
          .groupBy(['customerID', 'numberID']),
        addCalls,
      )
      await sums(unbilledCallCosts(this.db, callIDs), addCalls)
    }
    return out
  }

  async setCreditAlerts(customerID: string, alerts: readonly string[], spendAlertMonth?: string, expected?: StoredAlerts): Promise<boolean> {
    let q = this.db
      .updateTable('customers')
      .set({ creditAlerts: JSON.stringify(alerts), ...(spendAlertMonth === undefined ? {} : { spendAlertMonth }) })
      .where('id', '=', this.dialect.encodeId(customerID))
    if (expected) {
      // As every write stores them (row-codec.ts): JSON text, none before migration 0013's '[]'.
      const stored = JSON.stringify(expected.alerts)
      q = q.where((eb) => (expected.alerts.length === 0 ? eb.or([eb('creditAlerts', '=', stored), eb('creditAlerts', 'is', null)]) : eb('creditAlerts', '=', stored)))
      q = q.where('spendAlertMonth', expected.spendAlertMonth === null ? 'is' : '=', expected.spendAlertMonth)
    }
    const r = await q.executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  async markNumbersOver(numberIDs: readonly string[], over: boolean): Promise<string[]> {
    const changed: string[] = []
    for (let i = 0; i < numberIDs.length; i += CHUNK) {
      const ids = numberIDs.slice(i, i + CHUNK).map((n) => this.dialect.encodeId(n))
      // Only those not marked so already: a number marked meanwhile by another transaction is its.
      const rows = await this.db.updateTable('numbers').set({ overCreditLimit: over ? 1 : 0 }).where('id', 'in', ids).where('overCreditLimit', '=', over ? 0 : 1).returning('id').execute()
      for (const r of rows) changed.push(String(r.id))
    }
    return changed
  }

  async withCreditLimits(customerIDs: readonly string[]): Promise<string[]> {
    const out = new Set<string>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const own = await this.db
        .selectFrom('customers')
        .select('id')
        .where('id', 'in', ids)
        .where(creditWatched('customers'))
        .execute()
      for (const r of own) out.add(String(r.id))
    }
    for (const id of await this.withNumberCreditLimits(customerIDs)) out.add(id)
    return customerIDs.filter((id) => out.has(id))
  }

  async anyNumberCreditLimits(): Promise<boolean> {
    const row = await this.db.selectFrom('numbers').select('id').where(watchedNumber).limit(1).executeTakeFirst()
    return row !== undefined
  }

  async withNumberCreditLimitsBetween(firstCustomerID: string, lastCustomerID: string): Promise<string[]> {
    // A range, not a list: one statement text for every batch, on the partial indexes.
    const rows = await this.db
      .selectFrom('numbers')
      .select('customerID')
      .distinct()
      .where('customerID', '>=', this.dialect.encodeId(firstCustomerID))
      .where('customerID', '<=', this.dialect.encodeId(lastCustomerID))
      .where(watchedNumber)
      .execute()
    return rows.map((r) => String(r.customerID))
  }

  async withNumberCreditLimits(customerIDs: readonly string[]): Promise<string[]> {
    const out = new Set<string>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const rows = await this.db.selectFrom('numbers').select('customerID').distinct().where('customerID', 'in', ids).where(watchedNumber).execute()
      for (const r of rows) out.add(String(r.customerID))
    }
    return customerIDs.filter((id) => out.has(id))
  }
}
