import { sql } from 'kysely'
import type { AnyDb } from '../schema/tables.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns, columnType } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

/**
 * Billing runs stop writing their calls (docs/scaling.md): a `Call Charges` row records what it
 * covers (its calls' first and last start, the run's call mark, its calls' IDs where a number's
 * calls were split by VAT rate), calls the mark they were made billable under, and a run the
 * mark it bills below, from the counter `call_marks` (core/ports/call-marks.ts). A call's
 * transaction is derived where it is read (adapters/persistence/repositories/call-coverage.ts).
 *
 * Nothing moves: calls billed before keep the transaction stamped on them (`transactionID`, no
 * longer written), the rows that billed them cover nothing by range, and the calls still
 * unbilled are marked 0, below any run's mark. The counter's row is made by its first use, so a
 * new database stays empty for a restore.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0045-call-coverage']
  // 0 for every call there is, and for a writer that names no mark: any run bills it. (Null, which
  // only a writer that names it writes, is read as 0 too.)
  const mark = columnType(catalogue.calls.byName.get('callMark')!, dialect)
  await db.schema.alterTable('calls').addColumn('callMark', mark, (c) => c.defaultTo(0)).execute()
  await addColumns(db, dialect, catalogue.transactions, [...added.transactions!])
  await addColumns(db, dialect, catalogue.billingRuns, [...added.billingRuns!])
  await db.schema
    .createTable('call_marks')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('mark', 'integer', (c) => c.notNull())
    .execute()
  // Where a run's read of calls starts (CallMarks.noteSince): a row per import, restore, rating
  // page or number left unbilled, not per call.
  await db.schema
    .createTable('call_mark_starts')
    .addColumn('mark', mark, (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('call_mark_starts_mark_idx').on('call_mark_starts').columns(['mark', 'since']).execute()
  // A call's rows are its customer's that end at or after its start: the customer's Call Charges
  // rows only (other transactions have no range and are not in it).
  await db.schema
    .createIndex('transactions_call_charges_idx')
    .on('transactions')
    .columns(['customerID', 'callsTo'])
    .where(sql.ref('callsTo'), 'is not', null)
    .execute()
}
