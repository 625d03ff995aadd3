import type { Db, Tables } from '../schema/tables.js'
import { sql, type NotNull, type Selectable } from 'kysely'
import type { ChargeKind, LedgerCredit, LedgerRow } from '../../../core/ports/ledger.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import { fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { Item, Values } from '../../../core/fields/item.js'
import type { DiscardedDrafts, Invoiceable, Ledger, LedgerWrites, NewInvoice, RaisedInvoices } from '../../../core/ports/ledger.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { RowCodec } from '../row-codec.js'
import { insertLedgerRows, raiseRunInvoices } from './kysely-ledger-inserts.js'
import { discardRunDrafts, draftsCarrying, finaliseRunDrafts } from './kysely-draft-invoices.js'
import type { Invoice } from '../../../core/fields/entity.js'
import { KyselyLedgerMarks } from './kysely-ledger-marks.js'
import type { WriteAhead } from '../bulk-writes.js'

const CHUNK = 500
/** Features per ledger read: a billing run's whole batch (2,500 features) in one round trip, not five. */
const FEATURES_PER_READ = 5_000

/** The ledger on the `transactions` table, with bulk writes for billing runs. */
export class KyselyLedger implements Ledger {
  private readonly codec: RowCodec
  private readonly marks: KyselyLedgerMarks

  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    /** Told the rows each write adds to, changes in or removes from a table (see `PlannerStatistics`). */
    private readonly wrote: (table: string, rows: number) => Promise<void> = async () => {},
    /** A pipelined transaction's way of sending writes ahead (a billing run's step): a batch's invoices and rows go together. */
    private readonly send?: WriteAhead,
  ) {
    this.codec = new RowCodec(catalogue.transactions, dialect)
    this.marks = new KyselyLedgerMarks(db, dialect)
  }

  private id(v: string) {
    return this.dialect.encodeId(v)
  }

  async engineRows(featureIDs: readonly string[]): Promise<Map<string, LedgerRow[]>> {
    const out = new Map<string, LedgerRow[]>()
    for (let i = 0; i < featureIDs.length; i += FEATURES_PER_READ) {
      const ids = featureIDs.slice(i, i + FEATURES_PER_READ).map((f) => this.id(f))
      const rows = await this.db
        .selectFrom(this.dialect.rowsByIds<Selectable<Tables['transactions']>>('transactions', 'featureID', ids, sql`"kind" is not null`).as('transactions'))
        .select(['id', 'featureID', 'kind', 'series', 'revision', 'transactionType', 'transactionDate', 'dateFrom', 'dateTo', 'quantity', 'rate', 'amount', 'carrierCost', 'VATRate', 'VATAmount', 'approved', 'invoiceID'])
        // The engine writes every row it keys by kind with a type and its dates.
        .$narrowType<{ kind: NotNull; transactionType: NotNull; transactionDate: NotNull; dateFrom: NotNull; dateTo: NotNull }>()
        .orderBy('id')
        .execute()
      for (const r of rows) {
        const featureID = String(r.featureID)
        const row: LedgerRow = {
          id: String(r.id),
          kind: r.kind as ChargeKind,
          series: Number(r.series),
          revision: Number(r.revision),
          transactionType: r.transactionType,
          transactionDate: r.transactionDate,
          periodStart: r.dateFrom,
          periodEnd: r.dateTo,
          quantity: r.quantity === null ? null : Number(r.quantity),
          rate: r.rate === null ? null : fromUnits(this.dialect.decodeBigint(r.rate)),
          amount: fromUnits(this.dialect.decodeBigint(r.amount)),
          carrierCost: r.carrierCost === null ? ZERO : fromUnits(this.dialect.decodeBigint(r.carrierCost)),
          VATRate: r.VATRate,
          VATAmount: r.VATAmount === null ? ZERO : fromUnits(this.dialect.decodeBigint(r.VATAmount)),
          // A row on a draft invoice (contract 16.1) is billed as drafted: a change after drafting
          // is corrected as for an approved row (a refund or adjustment for the next invoice),
          // never by changing or deleting the row under the draft.
          approved: Number(r.approved) === 1 || r.invoiceID !== null,
        }
        const list = out.get(featureID)
        if (list) list.push(row)
        else out.set(featureID, [row])
      }
    }
    return this.withCredits(out)
  }

  /**
   * The engine rows with the credit note lines against each (`LedgerRow.credits`). Most ledgers
   * hold no credit note at all: one probe of the index on `creditedTransactionID` says so, and
   * then nothing more is read.
   */
  private async withCredits(rows: Map<string, LedgerRow[]>): Promise<Map<string, LedgerRow[]>> {
    const any = await this.db.selectFrom('transactions').select('id').where('creditedTransactionID', 'is not', null).limit(1).executeTakeFirst()
    if (!any) return rows
    const approved = [...rows.values()].flat().filter((r) => r.approved)
    const credits = new Map<string, LedgerCredit[]>()
    for (let i = 0; i < approved.length; i += FEATURES_PER_READ) {
      const ids = approved.slice(i, i + FEATURES_PER_READ).map((r) => this.id(r.id))
      const found = await this.db
        .selectFrom(this.dialect.rowsByIds<Selectable<Tables['transactions']>>('transactions', 'creditedTransactionID', ids, sql`1 = 1`).as('credits'))
        .select(['id', 'creditedTransactionID', 'amount', 'VATAmount'])
        .orderBy('id')
        .execute()
      for (const c of found) {
        const credit = { id: String(c.id), net: fromUnits(this.dialect.decodeBigint(c.amount)), vat: c.VATAmount === null ? ZERO : fromUnits(this.dialect.decodeBigint(c.VATAmount)) }
        const of = String(c.creditedTransactionID)
        const list = credits.get(of)
        if (list) list.push(credit)
        else credits.set(of, [credit])
      }
    }
    if (!credits.size) return rows
    for (const [featureID, list] of rows) rows.set(featureID, list.map((r) => (credits.has(r.id) ? { ...r, credits: credits.get(r.id) } : r)))
    return rows
  }

  async write(writes: LedgerWrites): Promise<void> {
    for (let i = 0; i < writes.deletes.length; i += CHUNK) {
      const ids = writes.deletes.slice(i, i + CHUNK).map((d) => this.id(d))
      await this.db.deleteFrom('transactions').where('id', 'in', ids).where('approved', '=', 0).execute()
    }
    for (const u of writes.updates) {
      await this.db.updateTable('transactions').set(this.codec.encode(u.values)).where('id', '=', this.id(u.id)).where('approved', '=', 0).execute()
    }
    await insertLedgerRows(this.db, this.dialect, writes.inserts)
    const reconciled = writes.reconciled ?? new Map<string, string>()
    await this.marks.drop([...new Set(writes.features)].filter((f) => !reconciled.has(f)))
    if (reconciled.size) await this.marks.store(reconciled)
    await this.wrote('transactions', writes.deletes.length + writes.updates.length + writes.inserts.length)
  }

  removeFeatures(featureIDs: readonly string[]): Promise<void> {
    return this.marks.drop(featureIDs)
  }

  async balances(customerIDs: readonly string[]): Promise<Map<string, Money>> {
    const out = new Map<string, Money>()
    if (!customerIDs.length) return out
    const rows = await this.db
      .selectFrom('transactions')
      .select(['customerID', sql<string>`sum(amount) + sum(${sql.ref('VATAmount')})`.as('balance')])
      .where('customerID', 'in', customerIDs.map((c) => this.id(c)))
      .groupBy('customerID')
      .execute()
    for (const r of rows) out.set(String(r.customerID), fromUnits(this.dialect.decodeBigint(r.balance ?? 0)))
    return out
  }

  async totals(customerID: string): Promise<{ net: Money; vat: Money }> {
    const r = await this.db
      .selectFrom('transactions')
      .select([sql<string>`coalesce(sum(amount), 0)`.as('net'), sql<string>`coalesce(sum(${sql.ref('VATAmount')}), 0)`.as('vat')])
      .where('customerID', '=', this.id(customerID))
      .executeTakeFirstOrThrow()
    return { net: fromUnits(this.dialect.decodeBigint(r.net ?? 0)), vat: fromUnits(this.dialect.decodeBigint(r.vat ?? 0)) }
  }

  async lastInvoiceDates(customerIDs: readonly string[]): Promise<Map<string, DateOnly>> {
    const out = new Map<string, DateOnly>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('invoices')
        .select(['customerID', sql<DateOnly | null>`max(${sql.ref('invoiceDate')})`.as('last')])
        .where('customerID', 'in', customerIDs.slice(i, i + CHUNK).map((c) => this.id(c)))
        // A draft (contract 16.1) is no invoice of the customer's until its run is approved.
        .where((eb) => eb.or([eb('status', 'is', null), eb('status', '<>', 'Draft')]))
        .groupBy('customerID')
        .execute()
      for (const r of rows) if (r.last) out.set(String(r.customerID), r.last)
    }
    return out
  }

  async invoiceable(customerIDs: readonly string[], date: DateOnly): Promise<Map<string, Invoiceable[]>> {
    const out = new Map<string, Invoiceable[]>()
    for (let i = 0; i < customerIDs.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('transactions')
        .select(['id', 'customerID', 'transactionDate', 'transactionType', 'kind', 'numberID', 'amount', 'VATAmount'])
        .where('customerID', 'in', customerIDs.slice(i, i + CHUNK).map((c) => this.id(c)))
        .where('approved', '=', 0)
        // `+` keeps SQLite off the invoiceID index, which it chose for `is null` without statistics:
        // every payment ever made sits under null there (payments are never on an invoice), and
        // each batch walked them all (bench/billing-run.ts --invoicing; figures in bench/RESULTS.md).
        // Postgres reads `+` as the identity and plans by its statistics either way.
        .where(sql`+${sql.ref('invoiceID')}`, 'is', null)
        .where('settles', '=', 0)
        .where('transactionDate', '<=', date)
        .$narrowType<{ transactionDate: NotNull }>()
        .orderBy('id')
        .execute()
      for (const r of rows) {
        const line: Invoiceable = {
          id: String(r.id),
          customerID: String(r.customerID),
          transactionDate: r.transactionDate,
          transactionType: r.transactionType,
          kind: r.kind as ChargeKind | null,
          numberID: r.numberID === null ? null : String(r.numberID),
          amount: fromUnits(this.dialect.decodeBigint(r.amount ?? 0)),
          VATAmount: r.VATAmount === null ? ZERO : fromUnits(this.dialect.decodeBigint(r.VATAmount)),
        }
        const list = out.get(line.customerID)
        if (list) list.push(line)
        else out.set(line.customerID, [line])
      }
    }
    return out
  }

  async runInvoiceTotals(billingRunID: string): Promise<{ amount: Money; count: number }> {
    const r = await this.db
      .selectFrom('invoices')
      .select([sql<string>`count(*)`.as('count'), sql<string>`coalesce(sum(${sql.ref('totalAmount')}), 0)`.as('amount')])
      .where('billingRunID', '=', this.id(billingRunID))
      .executeTakeFirstOrThrow()
    return { amount: fromUnits(this.dialect.decodeBigint(r.amount ?? 0)), count: Number(r.count) }
  }

  async raiseInvoices(invoices: readonly NewInvoice[], billingRunID: string, inserts: readonly Values[] = [], draft = false): Promise<RaisedInvoices> {
    const raised = await raiseRunInvoices(this.db, this.dialect, invoices, billingRunID, inserts, this.send, draft)
    await this.wrote('invoices', invoices.length)
    // The batch's new rows, and the rows already in the ledger that went on the invoices.
    await this.wrote('transactions', invoices.reduce((n, i) => n + i.transactionIDs.length, inserts.length))
    return raised
  }

  draftsCarrying(billingRunID: string, invoiceIDs: readonly string[]): Promise<Set<string>> {
    return draftsCarrying(this.db, this.dialect, billingRunID, invoiceIDs)
  }

  async finaliseDrafts(billingRunID: string, invoices: readonly Invoice[], carrying: ReadonlySet<string>): Promise<void> {
    // Rewritten, not added: the statistics drafting counted still hold (no row is added).
    await finaliseRunDrafts(this.db, this.dialect, billingRunID, invoices, carrying, this.send)
  }

  async discardDrafts(billingRunID: string, derivedTypes: readonly string[]): Promise<DiscardedDrafts> {
    return discardRunDrafts(this.db, this.dialect, billingRunID, derivedTypes)
  }
}
