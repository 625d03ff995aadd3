import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { accountCurrency, DEFAULT_CURRENCY, fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { JournalCsvPage, JournalDocument, JournalPage } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { invoiceJournalCsvPage } from './invoice-journal-csv.js'
import { pageBounds, readPages, withinPage, type PageBounds } from './read-pages.js'

/**
 * Invoices per page. Each page is two statements whatever its size, so pages are large (a
 * statement's fixed cost counts: Postgres planned each in about 8 ms on the loaded bench
 * machine); not larger, as at 10,000 SQLite's pages grew slower than their share.
 */
const INVOICE_PAGE = 5_000

interface Head {
  id: unknown
  date: unknown
  document: unknown
  customerID: unknown
  account: unknown
  currency: unknown
  /** Its lines packed (`DatabaseDialect.packedRows`): [code, VATRate, net, VAT] each, or null when it has none. */
  lines?: string | null
}

interface Line {
  doc: unknown
  code: unknown
  VATRate: unknown
  net: unknown
  vat: unknown
}

/** A journal line's account (contract 16.4): its customer's (alias `cu`) `accountingID`, else its account number. */
export const customerAccount = sql`coalesce(nullif(cu."accountingID", ''), cu."accountNumber")`

/** The currency customer `cu` (alias) is billed in, as `accountCurrency` decides it. */
export const customerCurrency = sql`coalesce(nullif(cu.currency, ''), ${DEFAULT_CURRENCY})`

/** Only the documents whose customer (`column`, its ID) is billed in `currency`, if one is asked for. */
export const customerIn = (column: RawBuilder<unknown>, currency: string | null | undefined): RawBuilder<unknown> =>
  currency ? sql` and ${column} in (select cu.id from customers cu where ${customerCurrency} = ${currency})` : sql``

/** An invoice's (alias `i`) currency: its customer's, looked up by its key. */
const currencyOf = sql`(select ${customerCurrency} from customers cu where cu.id = i."customerID")`

/**
 * An invoice's (alias `i`) account, by a look-up per invoice (as a join, Postgres hashed every
 * customer for a page) in the narrow index of accounts (migration 0061).
 */
const accountOf = (dialect: DatabaseDialect) =>
  sql`(select ${customerAccount} from ${dialect.throughIndex('customers', 'customers_account_idx')} cu where cu.id = i."customerID")`
/** An invoice's head (`Head`). */
const headColumns = (dialect: DatabaseDialect) =>
  sql`i.id as id, i."invoiceDate" as "date", coalesce(i."invoiceNumber", cast(i.id as text)) as document, i."customerID" as "customerID", ${accountOf(dialect)} as account, ${currencyOf} as currency`

/**
 * The journal lines of the invoices that meet `invoices` (a condition over alias `i`), in ID
 * order, a page of invoices at a time (contract 16.4). A page is two statements: its invoices
 * (with their customers' accounts), and the lines written with them (invoice_journal_lines,
 * migration 0060) over the range of invoice IDs the page spans, read in their key's order;
 * lines of an invoice in the range that is not the page's are dropped here.
 * Before 0060 the lines were the page's rows grouped by invoice, code and VAT rate on every ask,
 * most of a run's journal's time; before that, four statements merged and sorted here
 * (bench/RESULTS.md, session 31). With `csv` a page is one statement whose one row is its CSV
 * lines (invoice-journal-csv.ts), else (an amount too large for it) as below.
 */
export async function* invoiceJournal(db: Db, dialect: DatabaseDialect, invoices: RawBuilder<unknown>, csv: boolean): AsyncGenerator<JournalPage | JournalCsvPage> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const pages = await pageBounds(db, sql`select i.id as id from invoices i where 1 = 1${invoices}`, INVOICE_PAGE)
  const lines = linesOf(db, dialect, invoices, money)
  if (csv) {
    yield* readPages(dialect, pages, async (page) => (await invoiceJournalCsvPage(db, invoices, accountOf(dialect), currencyOf, page)) ?? (await lines(page)), (page) => page)
    return
  }
  yield* readPages(dialect, pages, lines, (page) => page)
}

/** A page's journal lines read as values (`JournalPage`): its heads with their lines packed (`DatabaseDialect.packedRows`), else its heads and its lines. */
function linesOf(db: Db, dialect: DatabaseDialect, invoices: RawBuilder<unknown>, money: (v: unknown) => Money): (page: PageBounds) => Promise<JournalPage> {
  // Postgres: each invoice's lines packed beside it, in their key's order, amounts as text (exact).
  const packed = dialect.packedRows(
    sql`select l."accountCode" as code, l."VATRate" as "VATRate", cast(l.net as text) as net, cast(l."VATAmount" as text) as vat from invoice_journal_lines l where l."invoiceID" = i.id`,
    ['code', 'VATRate', 'net', 'vat'],
    ['code', 'VATRate'],
  )
  if (packed !== null)
    return async (page) =>
      packedInvoicePage(
        (
          await sql<Head>`select ${headColumns(dialect)}, ${packed} as lines
            from invoices i where ${withinPage(sql`i.id`, page)}${invoices} order by i.id`.execute(db)
        ).rows,
        money,
      )
  return async (page) => {
    const heads = (
      await sql<Head>`select ${headColumns(dialect)}
        from invoices i where ${withinPage(sql`i.id`, page)}${invoices} order by i.id`.execute(db)
    ).rows
    // A VAT rate of '' is none: one line, ordered first on both databases.
    const lines = (
      await sql<Line>`select l."invoiceID" as doc, l."accountCode" as code, l."VATRate" as "VATRate", l.net as net, l."VATAmount" as vat
        from invoice_journal_lines l where ${withinPage(sql`l."invoiceID"`, page)} order by l."invoiceID", l."accountCode", l."VATRate"`.execute(db)
    ).rows
    return invoicePage(heads, lines, money)
  }
}

/**
 * A page's lines with their invoices, both in invoice ID order, walked together: a line's
 * invoice is the head at or after the last one (no look-up), a document object made once an
 * invoice, and no object for a line. A line whose invoice is not a head is another run's.
 */
function invoicePage(heads: readonly Head[], lines: readonly Line[], money: (v: unknown) => Money): JournalPage {
  return {
    forEach(line) {
      let h = 0
      let head: Head | undefined
      let document: JournalDocument | undefined
      for (const l of lines) {
        while (h < heads.length && before(heads[h].id, l.doc)) h++
        if (h === heads.length) return
        if (!same(heads[h].id, l.doc)) continue
        if (heads[h] !== head) {
          head = heads[h]
          document = documentOf(head)
        }
        line(document!, String(l.code), l.VATRate === '' || l.VATRate === null ? null : String(l.VATRate), money(l.net), money(l.vat))
      }
    },
  }
}

/** A page of invoices with their lines packed beside them (Postgres): one document object an invoice, no object for a line. */
function packedInvoicePage(heads: readonly Head[], money: (v: unknown) => Money): JournalPage {
  return {
    forEach(line) {
      for (const head of heads) {
        if (!head.lines) continue
        const document = documentOf(head)
        for (const [code, VATRate, net, vat] of JSON.parse(head.lines) as [string, string, string, string][]) line(document, code, VATRate === '' ? null : VATRate, money(net), money(vat))
      }
    },
  }
}

const documentOf = (head: Head): JournalDocument => ({ date: String(head.date) as DateOnly, documentType: 'invoice', document: String(head.document), customerID: String(head.customerID), account: head.account === null ? null : String(head.account), currency: accountCurrency(head.currency === null || head.currency === undefined ? null : String(head.currency)) })

/** IDs as a driver gives them (numbers, or Postgres's bigint text, canonical): `a` before `b`. */
const before = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number' ? a < b : String(a).length < String(b).length || (String(a).length === String(b).length && String(a) < String(b))
const same = (a: unknown, b: unknown): boolean => a === b || String(a) === String(b)
