import type { Db, Integer } from '../schema/tables.js'
import { sql, type NotNull } from 'kysely'
import type { AccountAllocation, KeptAllocation, Settlement } from '../../../core/ports/receivables.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { ZERO, type Money } from '../../../core/money/money.js'
import type { Account, InvoicePaymentLine, NumberMinimum, Receivables, StoredInvoice } from '../../../core/ports/receivables.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { moneyColumn } from '../money-column.js'
import { updateEach } from '../update-each.js'

const CHUNK = 500
/** Customers one read of held credit takes: an approval's step is 6,000 (bill-partition.ts), a run's a few hundred. */
const HELD_CHUNK = 2_000
const INVOICE_PAYMENT_COLUMNS = [
  { name: 'amountPaid', type: 'bigint' },
  { name: 'amountOutstanding', type: 'bigint' },
  { name: 'paidDate', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'updatedStamp', type: 'text' },
] as const

/** Invoices' payments on the `invoices`, `transactions`, `invoice_allocations` and `held_credits` tables. */
export class KyselyReceivables implements Receivables {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  private money(v: unknown): Money {
    return moneyColumn(this.dialect, v)
  }

  async accounts(customerIDs: readonly string[]): Promise<Map<string, Account>> {
    const out = new Map<string, { invoices: StoredInvoice[]; settlements: Settlement[]; allocations: KeptAllocation[] }>()
    for (const id of customerIDs) out.set(id, { invoices: [], settlements: [], allocations: [] })
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const ids = customerIDs.slice(i, i + CHUNK).map((c) => this.dialect.encodeId(c))
      const invoices = await this.db
        .selectFrom('invoices')
        .select(['id', 'customerID', 'invoiceDate', 'dueDate', 'overdueDate', 'totalAmount', 'VATAmount', 'amountPaid', 'amountOutstanding', 'paidDate', 'status'])
        .where('customerID', 'in', ids)
        // A draft (contract 16.1) is not allocated until its run is approved.
        .where((eb) => eb.or([eb('status', 'is', null), eb('status', '<>', 'Draft')]))
        // A run raises every invoice with its date; payments and credits are dated.
        .$narrowType<{ invoiceDate: NotNull }>()
        .orderBy('id')
        .execute()
      for (const r of invoices) {
        out.get(String(r.customerID))!.invoices.push({
          id: String(r.id),
          invoiceDate: r.invoiceDate,
          dueDate: r.dueDate ?? r.invoiceDate,
          overdueDate: r.overdueDate ?? r.dueDate ?? r.invoiceDate,
          totalAmount: this.money(r.totalAmount),
          VATAmount: this.money(r.VATAmount ?? 0),
          amountPaid: this.money(r.amountPaid),
          paidDate: r.paidDate,
          status: r.status,
        })
      }
      // A credit note's line pays its own invoice first (contract 15.3): it names it through its note.
      const settlements = await this.db
        .selectFrom('transactions as t')
        .leftJoin('credit_notes as n', 'n.id', 't.creditNoteID')
        .select(['t.id', 't.customerID', 't.transactionDate', 't.amount', 't.VATAmount', 'n.invoiceID'])
        .where('t.customerID', 'in', ids)
        .where('t.settles', '=', 1)
        .$narrowType<{ transactionDate: NotNull }>()
        .orderBy('t.id')
        .execute()
      for (const r of settlements) {
        const vat = -this.money(r.VATAmount)
        const paid = -this.money(r.amount) + vat
        const settlement: Settlement = { kind: 'transaction', id: String(r.id), date: r.transactionDate, amount: paid as Money, vat: vat as Money }
        out.get(String(r.customerID))!.settlements.push(r.invoiceID === null ? settlement : { ...settlement, invoiceID: String(r.invoiceID) })
      }
      // What is allocated stays allocated (contract 17.6): the next allocation starts from it.
      const allocations = await this.db
        .selectFrom('invoice_allocations')
        .select(['customerID', 'invoiceID', 'transactionID', 'creditInvoiceID', 'amount'])
        .where('customerID', 'in', ids)
        .orderBy('allocatedDate')
        .orderBy('invoiceID')
        .execute()
      for (const r of allocations) {
        const source = r.transactionID !== null ? { kind: 'transaction' as const, id: String(r.transactionID) } : { kind: 'invoice' as const, id: String(r.creditInvoiceID) }
        out.get(String(r.customerID))!.allocations.push({ invoiceID: String(r.invoiceID), source, amount: this.money(r.amount) })
      }
    }
    return out
  }

  async heldCredits(customerIDs: readonly string[]): Promise<Map<string, Money>> {
    const out = new Map(customerIDs.map((id) => [id, ZERO]))
    for (let i = 0; i < customerIDs.length; i += HELD_CHUNK) {
      const ids = customerIDs.slice(i, i + HELD_CHUNK).map((c) => this.dialect.encodeId(c))
      for (const r of await this.db.selectFrom('held_credits').select(['customerID', 'amount']).where('customerID', 'in', ids).execute()) out.set(String(r.customerID), this.money(r.amount))
    }
    return out
  }

  async saveAllocations(entries: readonly { customerID: string; allocation: AccountAllocation; before: Account }[], now: string): Promise<void> {
    const ids = entries.map((e) => this.dialect.encodeId(e.customerID))
    await this.deleteOf('invoice_allocations', ids)
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
    const invoices: { id: unknown; values: unknown[] }[] = []
    for (const { customerID, allocation, before } of entries) {
      for (const invoice of before.invoices) {
        const to = allocation.invoices.get(invoice.id)!
        if (invoice.amountPaid === to.amountPaid && invoice.paidDate === to.paidDate && invoice.status === to.status) continue
        const values = [this.dialect.encodeBigint(to.amountPaid), this.dialect.encodeBigint(to.amountOutstanding), to.paidDate, to.status, now]
        invoices.push({ id: this.dialect.encodeId(invoice.id), values })
      }
    }
    const held = entries.filter((e) => e.allocation.held !== 0n).map((e) => ({ customerID: this.dialect.encodeId(e.customerID), amount: this.dialect.encodeBigint(e.allocation.held) }))
    await updateEach(this.db, this.dialect, 'invoices', INVOICE_PAYMENT_COLUMNS, invoices)
    // A customer's row there is replaced like its allocations: none once it holds nothing.
    await this.deleteOf('held_credits', ids)
    for (let i = 0; i < held.length; i += CHUNK) await this.db.insertInto('held_credits').values(held.slice(i, i + CHUNK)).execute()
  }

  /** Deletes the customers' rows of a table kept by customer, a chunk of IDs a statement. */
  private async deleteOf(table: 'invoice_allocations' | 'held_credits', customerIDs: readonly unknown[]): Promise<void> {
    for (let i = 0; i < customerIDs.length; i += CHUNK) await this.db.deleteFrom(table).where('customerID', 'in', customerIDs.slice(i, i + CHUNK) as Integer[]).execute()
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
      date: r.allocatedDate,
    }))
  }

  async anyNumberMinimums(): Promise<boolean> {
    const row = await this.db.selectFrom('numbers').select('id').where('lowInvoiceActionValue', 'is not', null).limit(1).executeTakeFirst()
    return row !== undefined
  }

  async numberMinimums(firstCustomerID: string, lastCustomerID: string): Promise<NumberMinimum[]> {
    // A range, not a list: one statement text for every batch, on the partial index.
    const rows = await this.db
      .selectFrom('numbers')
      .select(['id', 'customerID', 'lowInvoiceActionValue', 'VATRateCalls'])
      .where('customerID', '>=', this.dialect.encodeId(firstCustomerID))
      .where('customerID', '<=', this.dialect.encodeId(lastCustomerID))
      .where('lowInvoiceActionValue', 'is not', null)
      .orderBy('id')
      .execute()
    // An empty rate is none, as for the number's calls (call-vat-rates.ts).
    return rows.map((r) => ({ id: String(r.id), customerID: String(r.customerID), value: this.money(r.lowInvoiceActionValue), VATRateCalls: r.VATRateCalls || null }))
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
