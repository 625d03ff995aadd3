import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { journalPageOf, type DateRange, type JournalCsvPage, type JournalDocumentType, type JournalPage, type JournalScope, type JournalSums } from '../../../core/ports/books.js'
import { accountCurrency, fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { customerAccount, customerIn, invoiceJournal } from './invoice-journal.js'
import { journalAccountCode } from '../repositories/invoice-journal-lines.js'

/**
 * Credit notes and payments per page (invoices: invoice-journal.ts). Large, because a
 * statement's fixed cost counts: Postgres planned each in about 8 ms on the loaded bench machine.
 */
const DOCUMENT_PAGE = 5_000

interface LineRow {
  doc: unknown
  date: unknown
  document: unknown
  customerID: unknown
  account: unknown
  currency: unknown
  code: unknown
  VATRate: unknown
  net: unknown
  vat: unknown
}

/**
 * The journal's lines, document by document (see `Books.journal`): invoices, then credit notes,
 * then payments, refunds and write-offs. With `csv`, the invoices' pages come written
 * (invoice-journal-csv.ts); the other documents' are few beside them and keep to lines.
 */
export async function* journalSums(db: Db, dialect: DatabaseDialect, scope: JournalScope, csv: boolean): AsyncGenerator<JournalPage | JournalCsvPage> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const decode = (type: JournalDocumentType) => (r: LineRow): JournalSums => ({
    date: String(r.date) as DateOnly,
    documentType: type,
    document: String(r.document),
    customerID: String(r.customerID),
    account: r.account === null ? null : String(r.account),
    currency: accountCurrency(r.currency === null || r.currency === undefined ? null : String(r.currency)),
    accountCode: String(r.code),
    VATRate: r.VATRate === null || r.VATRate === '' ? null : String(r.VATRate),
    net: money(r.net),
    VAT: money(r.vat),
  })
  const run = 'billingRunID' in scope ? dialect.encodeId(scope.billingRunID) : null
  const range: DateRange = 'range' in scope ? scope.range : { from: null, to: null }
  const within = (column: RawBuilder<unknown>) => sql`${range.from ? sql` and ${column} >= ${range.from}` : sql``}${range.to ? sql` and ${column} <= ${range.to}` : sql``}`

  // Invoices: final ones only (a draft is no document yet, contract 16.1).
  const invoices = sql` and coalesce(i.status, '') <> 'Draft'${run === null ? within(sql`i."invoiceDate"`) : sql` and i."billingRunID" = ${run}`}${customerIn(sql`i."customerID"`, scope.currency)}`
  yield* invoiceJournal(db, dialect, invoices, csv)
  if (run !== null) return

  // Credit notes: each line under the account code of the invoice line it credits.
  for await (const page of pages(db, (after) => sql<{ id: unknown }>`select n.id from credit_notes n where 1 = 1${within(sql`n.date`)}${customerIn(sql`n."customerID"`, scope.currency)}${after} order by n.id limit ${DOCUMENT_PAGE}`, 'n', dialect, async (ids) =>
    (
      await grouped(sql`select n.id as doc, n.date as "date", coalesce(n."creditNoteNumber", cast(n.id as text)) as document, n."customerID" as "customerID", ${journalAccountCode} as code, l."VATRate" as "VATRate", l.amount as amount, l."VATAmount" as vat
        from credit_notes n join transactions l on l."creditNoteID" = n.id join transactions t on t.id = l."creditedTransactionID"
        where ${dialect.inList('n.id', ids)}`).execute(db)
    ).rows.map(decode('creditNote')),
  ))
    yield journalPageOf(page)

  // Payments, refunds and written-off debt: each its own document, under its transaction type.
  const settling = sql`t.settles = 1 and t."creditNoteID" is null${within(sql`t."transactionDate"`)}${customerIn(sql`t."customerID"`, scope.currency)}`
  for (let after: string | null = null; ; ) {
    const from: RawBuilder<unknown> = after === null ? sql`` : sql` and t.id > ${dialect.encodeId(after)}`
    const rows: LineRow[] = (
      await sql<LineRow>`select t.id as doc, t."transactionDate" as "date", cast(t.id as text) as document, t."customerID" as "customerID", ${customerAccount} as account, cu.currency as currency, t."transactionType" as code, t."VATRate" as "VATRate", t.amount as net, t."VATAmount" as vat
        from transactions t join customers cu on cu.id = t."customerID" where ${settling}${from} order by t.id limit ${DOCUMENT_PAGE}`.execute(db)
    ).rows
    if (rows.length === 0) return
    yield journalPageOf(rows.map((r) => decode(r.code === 'Payment' ? 'payment' : r.code === 'Refund' ? 'refund' : 'writeOff')(r)))
    after = String(rows[rows.length - 1].doc)
  }
}

/** Rows of documents (doc, date, document, customerID, code, VATRate, amount, vat) summed per document, code and VAT rate; the customer's account read once a line. */
const grouped = (rows: RawBuilder<unknown>): RawBuilder<LineRow> =>
  sql<LineRow>`select s.*, ${customerAccount} as account, cu.currency as currency from (select doc, "date", document, "customerID", code, "VATRate", sum(amount) as net, sum(vat) as vat from (${rows}) x group by doc, "date", document, "customerID", code, "VATRate") s join customers cu on cu.id = s."customerID" order by doc, code, "VATRate"`

/** Documents a page at a time by ID (`select` lists a page of IDs after a given one), each page's lines read by `lines`. */
async function* pages(
  db: Db,
  select: (after: RawBuilder<unknown>) => RawBuilder<{ id: unknown }>,
  alias: string,
  dialect: DatabaseDialect,
  lines: (ids: number[]) => Promise<JournalSums[]>,
): AsyncGenerator<readonly JournalSums[]> {
  for (let after: string | null = null; ; ) {
    const ids: number[] = (await select(after === null ? sql`` : sql` and ${sql.ref(`${alias}.id`)} > ${dialect.encodeId(after)}`).execute(db)).rows.map((r) => Number(r.id))
    if (ids.length === 0) return
    yield await lines(ids)
    after = String(ids[ids.length - 1])
  }
}
