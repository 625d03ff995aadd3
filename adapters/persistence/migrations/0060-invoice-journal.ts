import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * An invoice's journal lines (contract 16.4), written with the invoice (invoice-journal-lines.ts):
 * its rows summed per account code and VAT rate, in the order the journal lists them, so a run's
 * journal reads 400,000 lines in key order instead of grouping its 1,600,000 rows on every ask
 * (bench/reports.ts: 4.6-16 s, most of it that grouping). Stored in key order on both databases
 * (SQLite keeps the table in its key, Postgres keeps the sums in the key's index), and filled
 * for the invoices already raised.
 *
 * The fill is written out here, not taken from the repository's `rebuildJournalLines`: a later
 * change to the lines (a column added by a later migration) must not change what this one does.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const bigint = sql.raw(String(dialect.types.bigint))
  const columns = sql`"invoiceID" ${sql.raw(String(dialect.idRefType))} not null, "accountCode" text not null, "VATRate" text not null, net ${bigint} not null, "VATAmount" ${bigint} not null`
  await dialect.createKeyedTable(db, 'invoice_journal_lines', columns, ['invoiceID', 'accountCode', 'VATRate'], ['net', 'VATAmount'])
  const code = sql`coalesce(nullif(t."accountCode", ''), case when t."transactionType" = 'Call Charges' then (select min(g."callsTransactionCode") from features g where g."numberID" = t."numberID" and g."callsTransactionCode" is not null and g."callsTransactionCode" <> '') end, t."transactionType")`
  await sql`insert into invoice_journal_lines ("invoiceID", "accountCode", "VATRate", net, "VATAmount")
    select "invoiceID", code, "VATRate", coalesce(sum(amount), 0), coalesce(sum(vat), 0) from (
      select t."invoiceID" as "invoiceID", ${code} as code, coalesce(t."VATRate", '') as "VATRate", t.amount as amount, t."VATAmount" as vat from transactions t where t."invoiceID" is not null) x
    group by "invoiceID", code, "VATRate"`.execute(db)
}
