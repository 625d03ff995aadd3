import { sql, type Kysely } from 'kysely'
import type { AccountAllocation, Settlement } from '../../../core/billing/allocation.js'
import type { InvoiceStatus } from '../../../core/presets/engine-lists.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { Account, InvoicePaymentLine, Receivables, StoredInvoice } from '../../../core/ports/receivables.js'
import type { CreditFigures } from '../../../core/credit/credit-alerts.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { DatabaseDialect } from '../dialect/dialect.js'

const CHUNK = 500

/** Invoices' payments on the `invoices`, `transactions` and `invoice_allocations` tables. */
export class KyselyReceivables implements Receivables {
  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DatabaseDialect,
  ) {}

  private money(v: unknown): Money {
    return v === null || v === undefined ? ZERO : fromUnits(this.dialect.decodeBigint(v as never))
  }

  async accounts(customerIDs: readonly string[]): Promise<Map<string, Account>> {
    const out = new Map<string, { invoices: StoredInvoice[]; settlements: Settlement[] }>()
    for (const id of customerIDs) out.set(id, { invoices: [], settlements: [] })
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const invoices = await this.db
        .selectFrom('invoices')
        .select(['id', 'customerID', 'invoiceDate', 'dueDate', 'overdueDate', 'totalAmount', 'amountPaid', 'amountOutstanding', 'paidDate', 'status'])
        .where('customerID', 'in', ids)
        .orderBy('id')
        .execute()
      for (const r of invoices) {
        out.get(String(r.customerID))!.invoices.push({
          id: String(r.id),
          invoiceDate: r.invoiceDate as DateOnly,
          dueDate: (r.dueDate ?? r.invoiceDate) as DateOnly,
          overdueDate: (r.overdueDate ?? r.dueDate ?? r.invoiceDate) as DateOnly,
          totalAmount: this.money(r.totalAmount),
          amountPaid: this.money(r.amountPaid),
          paidDate: (r.paidDate as DateOnly | null) ?? null,
          status: (r.status as InvoiceStatus | null) ?? null,
        })
      }
      const settlements = await this.db
        .selectFrom('transactions')
        .select(['id', 'customerID', 'transactionDate', 'amount', 'VATAmount'])
        .where('customerID', 'in', ids)
        .where('settles', '=', 1)
        .orderBy('id')
        .execute()
      for (const r of settlements) {
        const paid = -(this.money(r.amount) + this.money(r.VATAmount))
        out.get(String(r.customerID))!.settlements.push({ kind: 'transaction', id: String(r.id), date: r.transactionDate as DateOnly, amount: paid as Money })
      }
    }
    return out
  }

  async saveAllocations(entries: readonly { customerID: string; allocation: AccountAllocation; before: Account }[], now: string): Promise<void> {
    const ids = entries.map((e) => this.dialect.encodeId(e.customerID))
    for (let i = 0; i < ids.length; i += CHUNK) await this.db.deleteFrom('invoice_allocations').where('customerID', 'in', ids.slice(i, i + CHUNK)).execute()
    const rows = entries.flatMap(({ customerID, allocation }) =>
      allocation.allocations.map((a) => ({
        invoiceID: this.dialect.encodeId(a.invoiceID),
        customerID: this.dialect.encodeId(customerID),
        transactionID: a.source.kind === 'transaction' ? this.dialect.encodeId(a.source.id) : null,
        creditInvoiceID: a.source.kind === 'invoice' ? this.dialect.encodeId(a.source.id) : null,
        amount: this.dialect.encodeBigint(a.amount),
        allocatedDate: a.source.date,
      })),
    )
    for (let i = 0; i < rows.length; i += CHUNK) await this.db.insertInto('invoice_allocations').values(rows.slice(i, i + CHUNK)).execute()
    for (const { customerID, allocation, before } of entries) {
      for (const invoice of before.invoices) {
        const to = allocation.invoices.get(invoice.id)!
        if (invoice.amountPaid === to.amountPaid && invoice.paidDate === to.paidDate && invoice.status === to.status) continue
        await this.db
          .updateTable('invoices')
          .set({
            amountPaid: this.dialect.encodeBigint(to.amountPaid),
            amountOutstanding: this.dialect.encodeBigint(to.amountOutstanding),
            paidDate: to.paidDate,
            status: to.status,
            updatedStamp: now,
          })
          .where('id', '=', this.dialect.encodeId(invoice.id))
          .execute()
      }
      await this.db
        .updateTable('customers')
        .set({ overdueAmount: this.dialect.encodeBigint(allocation.overdueAmount), heldCredit: this.dialect.encodeBigint(allocation.held) })
        .where('id', '=', this.dialect.encodeId(customerID))
        .execute()
    }
  }

  async invoicePayments(invoiceID: string): Promise<InvoicePaymentLine[]> {
    // Rows are written in allocation order by one insert per customer: insertion order is theirs.
    const rows = await this.db
      .selectFrom('invoice_allocations')
      .select(['transactionID', 'creditInvoiceID', 'amount', 'allocatedDate'])
      .where('invoiceID', '=', this.dialect.encodeId(invoiceID))
      .orderBy('allocatedDate')
      .orderBy('transactionID')
      .execute()
    return rows.map((r) => ({
      transactionID: r.transactionID === null ? null : String(r.transactionID),
      creditInvoiceID: r.creditInvoiceID === null ? null : String(r.creditInvoiceID),
      amount: this.money(r.amount),
      date: r.allocatedDate as DateOnly,
    }))
  }

  async numberMinimums(customerIDs: readonly string[]): Promise<{ id: string; customerID: string; value: Money }[]> {
    const out: { id: string; customerID: string; value: Money }[] = []
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('numbers')
        .select(['id', 'customerID', 'lowInvoiceActionValue'])
        .where('customerID', 'in', customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c)))
        .where('lowInvoiceActionValue', 'is not', null)
        .where('isDropped', '=', 0)
        .orderBy('id')
        .execute()
      for (const r of rows) out.push({ id: String(r.id), customerID: String(r.customerID), value: this.money(r.lowInvoiceActionValue) })
    }
    return out
  }

  async creditFigures(customerIDs: readonly string[], unsentSince: Stamp): Promise<Map<string, CreditFigures>> {
    type Mutable = { -readonly [K in Exclude<keyof CreditFigures, 'numbers'>]: CreditFigures[K] } & { numbers: { creditLimit: Money; unbilledCalls: Money; id: string }[] }
    const out = new Map<string, Mutable>()
    const limit = (v: unknown) => (v === null || v === undefined ? null : this.money(v))
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const customers = await this.db
        .selectFrom('customers')
        .select(['id', 'creditLimit', 'creditLimitCalls', 'creditLimitOverdue', 'creditLimitUnsent', 'overdueAmount', 'creditAlerts'])
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
          overdueAmount: this.money(r.overdueAmount),
          unsent: ZERO,
          numbers: [],
          stored: r.creditAlerts ? (JSON.parse(String(r.creditAlerts)) as string[]) : [],
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
      const unsentIDs = having((f) => f.creditLimitUnsent !== null)
      if (unsentIDs.length) {
        await sums(
          this.db.selectFrom('invoices').select(['customerID', sql<string>`sum(${sql.ref('totalAmount')})`.as('total')]).where('customerID', 'in', unsentIDs).where('createdStamp', '>=', unsentSince).groupBy('customerID'),
          (f, r) => (f.unsent = this.money(r.total ?? 0)),
        )
      }
      const numbers = await this.db
        .selectFrom('numbers')
        .select(['id', 'customerID', 'creditLimit'])
        .where('customerID', 'in', ids)
        .where('creditLimit', 'is not', null)
        .execute()
      for (const r of numbers) out.get(String(r.customerID))?.numbers.push({ id: String(r.id), creditLimit: this.money(r.creditLimit), unbilledCalls: ZERO })
      const callIDs = having((f) => f.creditLimitCalls !== null || f.numbers.length > 0)
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
          .where('approved', '=', 0)
          .groupBy(['customerID', 'numberID']),
        addCalls,
      )
      await sums(
        this.db
          .selectFrom('calls')
          .select(['customerID', 'numberID', sql<string>`sum(cost)`.as('total')])
          .where('customerID', 'in', callIDs)
          .where('rated', '=', 1)
          .where('deleted', '=', 0)
          .where('transactionID', 'is', null)
          .groupBy(['customerID', 'numberID']),
        addCalls,
      )
    }
    return out
  }

  async setCreditAlerts(customerID: string, alerts: readonly string[]): Promise<void> {
    await this.db.updateTable('customers').set({ creditAlerts: JSON.stringify(alerts) }).where('id', '=', this.dialect.encodeId(customerID)).execute()
  }

  async withCreditLimits(customerIDs: readonly string[]): Promise<string[]> {
    const out = new Set<string>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const own = await this.db
        .selectFrom('customers')
        .select('id')
        .where('id', 'in', ids)
        .where((eb) =>
          eb.or([
            eb('creditLimit', 'is not', null),
            eb('creditLimitCalls', 'is not', null),
            eb('creditLimitOverdue', 'is not', null),
            eb('creditLimitUnsent', 'is not', null),
            eb.and([eb('creditAlerts', 'is not', null), eb('creditAlerts', '<>', '[]')]),
          ]),
        )
        .execute()
      for (const r of own) out.add(String(r.id))
    }
    for (const id of await this.withNumberCreditLimits(customerIDs)) out.add(id)
    return customerIDs.filter((id) => out.has(id))
  }

  async withNumberCreditLimits(customerIDs: readonly string[]): Promise<string[]> {
    const out = new Set<string>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const rows = await this.db.selectFrom('numbers').select('customerID').distinct().where('customerID', 'in', ids).where('creditLimit', 'is not', null).execute()
      for (const r of rows) out.add(String(r.customerID))
    }
    return customerIDs.filter((id) => out.has(id))
  }

  async newlyOverdue(today: DateOnly, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('invoices')
      .select('customerID')
      .distinct()
      .where('status', '=', 'Unpaid')
      .where('overdueDate', '<', today)
      .orderBy('customerID')
      .limit(limit)
      .execute()
    return rows.map((r) => String(r.customerID))
  }
}
