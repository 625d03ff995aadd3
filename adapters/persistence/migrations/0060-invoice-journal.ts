import { sql } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'
import { rebuildJournalLines } from '../repositories/invoice-journal-lines.js'

/**
 * An invoice's journal lines (contract 16.4), written with the invoice (invoice-journal-lines.ts):
 * its rows summed per account code and VAT rate, in the order the journal lists them, so a run's
 * journal reads 400,000 lines in key order instead of grouping its 1,600,000 rows on every ask
 * (bench/reports.ts: 4.6-16 s, most of it that grouping). Stored in key order on both databases
 * (SQLite keeps the table in its key, Postgres keeps the sums in the key's index), and filled
 * for the invoices already raised.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const bigint = sql.raw(String(dialect.types.bigint))
  const columns = sql`"invoiceID" ${sql.raw(String(dialect.idRefType))} not null, "accountCode" text not null, "VATRate" text not null, net ${bigint} not null, "VATAmount" ${bigint} not null`
  await dialect.createKeyedTable(db, 'invoice_journal_lines', columns, ['invoiceID', 'accountCode', 'VATRate'], ['net', 'VATAmount'])
  await rebuildJournalLines(db)
}
