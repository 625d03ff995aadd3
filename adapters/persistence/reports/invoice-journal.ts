import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { JournalSums } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

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
}

interface Line {
  doc: unknown
  code: unknown
  VATRate: unknown
  net: unknown
  vat: unknown
}

/** The calls code of a number (contract 16.4): the `callsTransactionCode` of its features, the least when several set one. */
export const callsCode = (numberID: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`(select min(g."callsTransactionCode") from features g where g."numberID" = ${numberID} and g."callsTransactionCode" is not null and g."callsTransactionCode" <> '')`

/**
 * The account code of a row `t` of an invoice, where its number's calls code is asked for only
 * of the call charges of numbers that have one (`features_calls_code_idx`, few): the rest take
 * the code posted with them, else their type, with no look-up.
 */
const invoiceRowCode = sql`case when t."transactionType" = 'Call Charges' and t."numberID" in (select c."numberID" from features c where c."callsTransactionCode" is not null and c."callsTransactionCode" <> '') then coalesce(${callsCode(sql`t."numberID"`)}, 'Call Charges') else coalesce(nullif(t."accountCode", ''), t."transactionType") end`

/**
 * The journal lines of the invoices that meet `invoices` (a condition over alias `i`), in ID
 * order, a page of invoices at a time (contract 16.4). A page is two statements: its invoices
 * (with their customers' accounts), and its lines, summed per invoice, account code and VAT
 * rate over the range of invoice IDs the page spans, in that order. The lines are read from
 * the covering invoice index in its own order (grouped first by what it holds, then by code;
 * no row read), and lines of an invoice in the range that is not the page's are dropped here.
 * Before, a page was four statements (the IDs, the heads, the charges and the call charges by
 * number) merged and sorted here, and every row was checked against its invoice:
 * bench/RESULTS.md, session 31.
 */
export async function* invoiceJournal(db: Db, dialect: DatabaseDialect, invoices: RawBuilder<unknown>): AsyncGenerator<readonly JournalSums[]> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const read = async (after: string | null): Promise<{ heads: Head[]; lines: Line[] } | null> => {
    const from: RawBuilder<unknown> = after === null ? sql`` : sql` and i.id > ${dialect.encodeId(after)}`
    const heads = (
      await sql<Head>`select i.id as id, i."invoiceDate" as "date", coalesce(i."invoiceNumber", cast(i.id as text)) as document, i."customerID" as "customerID", coalesce(nullif(cu."accountingID", ''), cu."accountNumber") as account
        from invoices i join customers cu on cu.id = i."customerID" where 1 = 1${invoices}${from} order by i.id limit ${INVOICE_PAGE}`.execute(db)
    ).rows
    if (heads.length === 0) return null
    const first = dialect.encodeId(String(heads[0].id))
    const last = dialect.encodeId(String(heads[heads.length - 1].id))
    // A VAT rate of '' is none, as null is: one line, ordered first on both databases.
    const lines = (
      await sql<Line>`select doc, code, rate as "VATRate", sum(net) as net, sum(vat) as vat from (
          select t."invoiceID" as doc, ${invoiceRowCode} as code, coalesce(t."VATRate", '') as rate, sum(t.amount) as net, sum(t."VATAmount") as vat
          from transactions t where t."invoiceID" >= ${first} and t."invoiceID" <= ${last}
          group by t."invoiceID", t."accountCode", t."transactionType", t."VATRate", t."numberID") s
        group by doc, code, rate order by doc, code, rate`.execute(db)
    ).rows
    return { heads, lines }
  }
  // The next page is read while this one is written out (on Postgres's server, or a SQLite
  // file's reads thread): the answer takes the longer of the two, not their sum.
  for (let next = readAhead(read(null)); ; ) {
    const page = await next
    if (page === null) return
    next = readAhead(read(String(page.heads[page.heads.length - 1].id)))
    const byID = new Map<string, Head>()
    for (const h of page.heads) byID.set(String(h.id), h)
    const out: JournalSums[] = []
    for (const l of page.lines) {
      const h = byID.get(String(l.doc))
      if (!h) continue
      out.push({
        date: String(h.date) as DateOnly,
        documentType: 'invoice',
        document: String(h.document),
        customerID: String(h.customerID),
        account: h.account === null ? null : String(h.account),
        accountCode: String(l.code),
        VATRate: l.VATRate === '' || l.VATRate === null ? null : String(l.VATRate),
        net: money(l.net),
        VAT: money(l.vat),
      })
    }
    yield out
  }
}

/** A read begun ahead of its use: its failure is the reader's when it awaits it, and no unhandled rejection if the answer ends first. */
export function readAhead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined)
  return read
}
