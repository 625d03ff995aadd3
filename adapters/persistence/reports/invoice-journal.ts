import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { JournalSums } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { readAhead } from './read-ahead.js'

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
 * The calls code of each number that has one (few: `features_calls_code_idx`), joined to the
 * call charges of a journal page. As a look-up in every group instead, Postgres costed the
 * statement high enough to compile it (JIT, about 130 ms a page), though it ran none.
 */
const numberCallsCodes = sql`select f."numberID" as "numberID", min(f."callsTransactionCode") as code from features f where f."callsTransactionCode" is not null and f."callsTransactionCode" <> '' group by f."numberID"`

const account = sql`coalesce(nullif(cu."accountingID", ''), cu."accountNumber")`

/**
 * The journal lines of the invoices that meet `invoices` (a condition over alias `i`), in ID
 * order, a page of invoices at a time (contract 16.4). A page is two statements: its invoices
 * (with their customers' accounts), and its lines, summed per invoice, account code and VAT
 * rate over the range of invoice IDs the page spans, in that order, read from the covering
 * invoice index (no row read); lines of an invoice in the range that is not the page's are
 * dropped here. (Grouped first by the index's own columns, then by code, Postgres took twice as
 * long, hashing the groups again.)
 * Before, a page was four statements (the IDs, the heads, the charges and the call charges by
 * number) merged and sorted here, and every row was checked against its invoice:
 * bench/RESULTS.md, session 31.
 */
export async function* invoiceJournal(db: Db, dialect: DatabaseDialect, invoices: RawBuilder<unknown>): AsyncGenerator<readonly JournalSums[]> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  const read = async (after: string | null): Promise<{ heads: Head[]; lines: Line[]; after: string } | null> => {
    const from: RawBuilder<unknown> = after === null ? sql`` : sql` and i.id > ${dialect.encodeId(after)}`
    // The account by a look-up per invoice: as a join, Postgres hashed every customer for a page.
    const heads = (
      await sql<Head>`select i.id as id, i."invoiceDate" as "date", coalesce(i."invoiceNumber", cast(i.id as text)) as document, i."customerID" as "customerID", (select ${account} from customers cu where cu.id = i."customerID") as account
        from invoices i where 1 = 1${invoices}${from} order by i.id limit ${INVOICE_PAGE}`.execute(db)
    ).rows
    if (heads.length === 0) return null
    const first = dialect.encodeId(String(heads[0].id))
    const last = dialect.encodeId(String(heads[heads.length - 1].id))
    // A VAT rate of '' is none, as null is: one line, ordered first on both databases.
    const lines = (
      await sql<Line>`select t."invoiceID" as doc, coalesce(k.code, nullif(t."accountCode", ''), t."transactionType") as code, coalesce(t."VATRate", '') as "VATRate", sum(t.amount) as net, sum(t."VATAmount") as vat
        from transactions t left join (${numberCallsCodes}) k on k."numberID" = t."numberID" and t."transactionType" = 'Call Charges'
        where t."invoiceID" >= ${first} and t."invoiceID" <= ${last} group by t."invoiceID", 2, 3 order by 1, 2, 3`.execute(db)
    ).rows
    return { heads, lines, after: String(heads[heads.length - 1].id) }
  }
  yield* readAhead(read, (page) => {
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
    return out
  })
}
