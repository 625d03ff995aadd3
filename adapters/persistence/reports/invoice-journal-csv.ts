import { sql, type RawBuilder } from 'kysely'
import { fromUnits } from '../../../core/money/money.js'
import type { JournalCsvPage } from '../../../core/ports/books.js'
import type { Db } from '../schema/tables.js'
import { withinPage, type PageBounds } from './read-pages.js'

/**
 * The largest amount (ten-thousandths) written here: below 10^15 an amount's JSON number (its
 * double's shortest text, `moneyToNumber`) is its decimal text with the trailing zeros of its
 * fraction dropped, which SQL writes; beyond, the page is read as lines and written by the CSV
 * writer. Bounded so, a page's sums stay far inside SQLite's 64-bit integers.
 */
const EXACT = sql.raw('999999999999999')

/**
 * A text cell as `csvText` writes it (core/documents/csv-cells.ts): a `'` before a first `=`, `+`,
 * `-`, `@`, tab or CR (a spreadsheet would run it as a formula) unless it is only digits, spaces,
 * `+`, `-`, `(`, `)` and `.` (`NUMBER_LIKE`: what `ltrim` of those leaves empty, on both databases),
 * quoted (RFC 4180) when it holds a quote, comma, CR or LF; null is empty. The `'` adds no
 * character that quoting looks for, so the quoting is decided on the value itself.
 */
const cell = (value: RawBuilder<unknown>): RawBuilder<unknown> => {
  const guard = sql`case when substr(${value}, 1, 1) in ('=', '+', '-', '@', ${'\t'}, ${'\r'}) and ltrim(${value}, '0123456789 +-().') <> '' then '''' else '' end`
  return sql`coalesce(case when ${value} like '%"%' or ${value} like '%,%' or ${value} like ${'%\r%'} or ${value} like ${'%\n%'} then '"' || ${guard} || replace(${value}, '"', '""') || '"' else ${guard} || ${value} end, '')`
}

/** An amount in ten-thousandths (within `EXACT`) as `moneyToNumber` writes it: sign, units, and the fraction's digits without trailing zeros. */
const amount = (units: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`case when ${units} < 0 then '-' else '' end || cast(abs(${units}) / 10000 as text) || case when abs(${units}) % 10000 = 0 then '' else '.' || rtrim(substr(cast(10000 + abs(${units}) % 10000 as text), 2), '0') end`

const withinExact = (units: RawBuilder<unknown>): RawBuilder<unknown> => sql`${units} between -${EXACT} and ${EXACT}`

/** Both amounts of journal line `alias` within `EXACT`. */
const exactLine = (alias: string) => sql`${withinExact(sql.ref(`${alias}.net`))} and ${withinExact(sql.ref(`${alias}.VATAmount`))}`

/**
 * A page of a run's invoices' journal lines written by the database as the CSV answer's lines
 * (the HTTP adapter's `journalPieces`: date, type, document, customer, account, code, VAT rate,
 * net, VAT, currency; CRLF), in the order the lines are read (invoice ID, then the lines' key), with their
 * sums per currency (`currency`: the customer's, as the caller writes it in SQL): one row a page, where a page read as heads and lines was 5,000 invoices' and 10,000
 * lines' values made into JavaScript strings, BigInts and CSV text (bench/RESULTS.md, session 33).
 * The same statement on both databases (materialized CTEs, `string_agg` with its order: SQLite
 * 3.44+). The heads are materialized so that the account, looked up once an invoice (`account`:
 * as a join, Postgres hashed every customer for a page), and the head's cells are made once, not
 * once a line. Null when an amount of the page is beyond `EXACT` (the caller reads that page as lines).
 */
export async function invoiceJournalCsvPage(db: Db, invoices: RawBuilder<unknown>, account: RawBuilder<unknown>, currency: RawBuilder<unknown>, page: PageBounds): Promise<JournalCsvPage | null> {
  const exact = exactLine('l')
  const line = sql`h.head || ${cell(sql`l."accountCode"`)} || ',' || ${cell(sql`l."VATRate"`)} || ',' || ${amount(sql`l.net`)} || ',' || ${amount(sql`l."VATAmount"`)} || ',' || h.cc || ${'\r\n'}`
  // A page's sums per currency, one "<currency> <net> <VAT>" a line.
  const sums = sql`(select string_agg(s.cur || ' ' || cast(s.net as text) || ' ' || cast(s.vat as text), ${'\n'}) from (
      select g.cur as cur, sum(k.net) as net, sum(k."VATAmount") as vat from h g join invoice_journal_lines k on k."invoiceID" = g.id
      where ${withinPage(sql`k."invoiceID"`, page)} and ${exactLine('k')} group by g.cur) s)`
  const row = (
    await sql<{ text: string | null; sums: string | null; inexact: unknown }>`with x as materialized (
        select i.id as id, i."invoiceDate" as d, coalesce(i."invoiceNumber", cast(i.id as text)) as doc, cast(i."customerID" as text) as cust, ${account} as acct, ${currency} as cur
        from invoices i where ${withinPage(sql`i.id`, page)}${invoices}),
      h as materialized (select x.id as id, x.cur as cur, ${cell(sql`x.cur`)} as cc, x.d || ',invoice,' || ${cell(sql`x.doc`)} || ',' || x.cust || ',' || ${cell(sql`x.acct`)} || ',' as head from x)
      select string_agg(case when ${exact} then ${line} end, '' order by h.id, l."accountCode", l."VATRate") as text,
        ${sums} as sums,
        count(case when ${exact} then null else 1 end) as inexact
      from h join invoice_journal_lines l on l."invoiceID" = h.id
      where ${withinPage(sql`l."invoiceID"`, page)}`.execute(db)
  ).rows[0]
  if (Number(row.inexact) > 0) return null
  const bySum = (row.sums ?? '').split('\n').filter(Boolean).map((entry) => {
    const [vat, net, ...cur] = entry.split(' ').reverse()
    return { currency: cur.reverse().join(' '), net: fromUnits(net), VAT: fromUnits(vat) }
  })
  return { csv: row.text ?? '', sums: bySum }
}
