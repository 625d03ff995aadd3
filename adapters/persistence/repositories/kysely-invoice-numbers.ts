import { sql } from 'kysely'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { InvoiceNumbers, NumberCounter } from '../../../core/ports/invoice-numbers.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'

/** Each counter's row of the table of migration 0024: invoices' is the first (see `InvoiceNumbers`). */
const counterRow: Record<NumberCounter, number> = { invoices: 1, creditNotes: 2 }

/** The counter rows of migration 0024 (see `InvoiceNumbers`). */
export class KyselyInvoiceNumbers implements InvoiceNumbers {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async take(count: number, counter: NumberCounter = 'invoices'): Promise<bigint> {
    // One statement moves the counter and answers it: Postgres holds the row's lock until the
    // commit (the next taker waits, then reads the moved value), SQLite its write lock. The
    // first ever makes the row (a new database's table is empty, as a restore wants it).
    const row = await this.db
      .insertInto('invoice_number_sequence')
      .values({ id: counterRow[counter], last: BigInt(count) as never })
      .onConflict((oc) => oc.column('id').doUpdateSet({ last: sql`invoice_number_sequence.last + ${count}` }))
      .returning('last')
      .executeTakeFirstOrThrow()
    return this.dialect.decodeBigint(row.last) - BigInt(count) + 1n
  }

  async unnumbered(): Promise<{ id: string; invoiceDate: DateOnly }[]> {
    const rows = await this.db.selectFrom('invoices').select(['id', 'invoiceDate']).where('invoiceNumber', 'is', null)
      // A draft (contract 16.1) takes its number when its run is approved, not as an earlier invoice.
      .where((eb) => eb.or([eb('status', 'is', null), eb('status', '<>', 'Draft')]))
      .orderBy('id').execute()
    return rows.map((r) => ({ id: String(r.id), invoiceDate: r.invoiceDate as DateOnly }))
  }

  async assignEarlier(numbers: readonly { id: string; invoiceNumber: string }[]): Promise<void> {
    for (const n of numbers) {
      await this.db
        .updateTable('invoices')
        .set({ invoiceNumber: n.invoiceNumber, sentDate: sql`coalesce(${sql.ref('sentDate')}, ${sql.ref('invoiceDate')})` })
        .where('id', '=', this.dialect.encodeId(n.id))
        .execute()
    }
  }
}
