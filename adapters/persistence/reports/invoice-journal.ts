import { sql, type RawBuilder } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import { add, fromUnits, ZERO, type Money } from '../../../core/money/money.js'
import type { JournalSums } from '../../../core/ports/books.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

interface Sums {
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
 * The journal lines of a page of invoices (contract 16.4), summed from the covering index of
 * their rows in its own order: the rows other than call charges grouped by invoice, posted code,
 * type and VAT rate as the index holds them (no sort, no row read), the call charges by invoice,
 * number and rate, then under their number's calls code. The two are merged per invoice, code and
 * rate here: a handful of sums an invoice. Grouping all rows by a computed code instead sorted
 * every row of the run (bench/reports.ts: 2.6 s for 300,000 features, 1.6 s this way).
 */
export async function invoiceLines(db: Db, dialect: DatabaseDialect, ids: readonly number[], invoices: RawBuilder<unknown>): Promise<JournalSums[]> {
  const money = (v: unknown): Money => (v === null || v === undefined ? ZERO : fromUnits(dialect.decodeBigint(v)))
  // The page as its range of invoice IDs and the page's own condition on the invoice (`invoices`,
  // over alias i): the index is read from the first invoice to the last, and each statement's text
  // is the same whatever the page (a list of the page's IDs made SQLite drive the read from the
  // list and sort, twice as slow with 10,000 of them).
  const first = ids[0]
  const last = ids[ids.length - 1]
  const inPage = sql`t."invoiceID" >= ${first} and t."invoiceID" <= ${last} and exists (select 1 from invoices i where i.id = t."invoiceID" and i.id >= ${first} and i.id <= ${last}${invoices})`
  const [heads, charges, calls] = await Promise.all([
    sql<{ id: unknown; date: unknown; document: unknown; customerID: unknown; account: unknown }>`select i.id as id, i."invoiceDate" as "date", coalesce(i."invoiceNumber", cast(i.id as text)) as document, i."customerID" as "customerID", coalesce(nullif(cu."accountingID", ''), cu."accountNumber") as account
      from invoices i join customers cu on cu.id = i."customerID" where i.id >= ${first} and i.id <= ${last}${invoices}`.execute(db),
    sql<Sums>`select t."invoiceID" as doc, coalesce(nullif(t."accountCode", ''), t."transactionType") as code, t."VATRate" as "VATRate", sum(t.amount) as net, sum(t."VATAmount") as vat
      from transactions t where ${inPage} and t."transactionType" <> 'Call Charges' group by t."invoiceID", t."accountCode", t."transactionType", t."VATRate"`.execute(db),
    sql<Sums>`select doc, coalesce(${callsCode(sql`c."numberID"`)}, 'Call Charges') as code, "VATRate", net, vat
      from (select t."invoiceID" as doc, t."numberID" as "numberID", t."VATRate" as "VATRate", sum(t.amount) as net, sum(t."VATAmount") as vat from transactions t where ${inPage} and t."transactionType" = 'Call Charges' group by t."invoiceID", t."numberID", t."VATRate") c`.execute(db),
  ])
  const head = new Map(heads.rows.map((h) => [String(h.id), h]))
  const lines = new Map<string, JournalSums>()
  for (const r of [...charges.rows, ...calls.rows]) {
    const h = head.get(String(r.doc))
    if (!h) continue
    const VATRate = r.VATRate === null || r.VATRate === '' ? null : String(r.VATRate)
    const key = `${String(r.doc)}\u0000${String(r.code)}\u0000${VATRate ?? ''}`
    const seen = lines.get(key)
    if (seen) {
      lines.set(key, { ...seen, net: add(seen.net, money(r.net)), VAT: add(seen.VAT, money(r.vat)) })
      continue
    }
    lines.set(key, {
      date: String(h.date) as DateOnly,
      documentType: 'invoice',
      document: String(h.document),
      customerID: String(h.customerID),
      account: h.account === null ? null : String(h.account),
      accountCode: String(r.code),
      VATRate,
      net: money(r.net),
      VAT: money(r.vat),
    })
  }
  const order = new Map(ids.map((id, i) => [String(id), i]))
  const docOf = (l: JournalSums, key: string) => order.get(key.slice(0, key.indexOf('\u0000'))) ?? 0
  return [...lines.entries()]
    .sort(([ka, a], [kb, b]) => docOf(a, ka) - docOf(b, kb) || (a.accountCode < b.accountCode ? -1 : a.accountCode > b.accountCode ? 1 : 0) || ((a.VATRate ?? '') < (b.VATRate ?? '') ? -1 : (a.VATRate ?? '') > (b.VATRate ?? '') ? 1 : 0))
    .map(([, l]) => l)
}
