import { sql, type RawBuilder } from 'kysely'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { AnyDb } from '../schema/tables.js'

/**
 * The account code of a ledger row `t` in the journal (contract 16.4): the one posted with it
 * (its feature's `connectionTransactionCode` or `serviceTransactionCode` by the row's kind, or
 * for call charges the least `callsTransactionCode` of its number's features: call-account-codes.ts);
 * for call charges written before that code was kept, the same worked out now; else the
 * transaction type. A credit note line reads its credited row's, so both post under one code.
 */
export const journalAccountCode = sql`coalesce(nullif(t."accountCode", ''), case when t."transactionType" = 'Call Charges' then (select min(g."callsTransactionCode") from features g where g."numberID" = t."numberID" and g."callsTransactionCode" is not null and g."callsTransactionCode" <> '') end, t."transactionType")`

/**
 * The journal lines of the rows `rows` (a table or subquery, aliased `t`) that meet `where`:
 * their sums per invoice, account code and VAT rate (none is ''), in the columns of
 * `invoice_journal_lines` (migration 0060).
 */
export const journalLinesSelect = (rows: RawBuilder<unknown>, where: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`select "invoiceID", code, "VATRate", coalesce(sum(amount), 0), coalesce(sum(vat), 0) from (
      select t."invoiceID" as "invoiceID", ${journalAccountCode} as code, coalesce(t."VATRate", '') as "VATRate", t.amount as amount, t."VATAmount" as vat from ${rows} t where ${where}) x
    group by "invoiceID", code, "VATRate"`

/**
 * Writes the journal lines of invoices just raised, once their rows are on them (the last
 * statement of `raiseRunInvoices`, in the same transaction): the journal then reads an invoice's
 * lines as they are, not its rows summed on every ask (reports/invoice-journal.ts). An invoice's
 * rows do not change once it is raised; a draft's lines go with it when a review run is
 * discarded (`discardJournalLines`), and approving it changes no row.
 */
export function writeJournalLines(dialect: DatabaseDialect, invoiceIds: readonly bigint[]): RawBuilder<unknown> {
  const rows = dialect.rowsByIds('transactions', 'invoiceID', invoiceIds, sql<boolean>`1 = 1`)
  return sql`insert into invoice_journal_lines ("invoiceID", "accountCode", "VATRate", net, "VATAmount") ${journalLinesSelect(rows, sql`1 = 1`)}`
}

/** The journal lines of every invoice, where none are written yet: migration 0060, and an archive from before it once restored. */
export async function rebuildJournalLines(db: AnyDb): Promise<void> {
  await sql`insert into invoice_journal_lines ("invoiceID", "accountCode", "VATRate", net, "VATAmount") ${journalLinesSelect(sql`transactions`, sql`t."invoiceID" is not null`)}`.execute(db)
}
