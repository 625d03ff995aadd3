import type { ExpressionBuilder } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { Invoice } from '../../../core/fields/entity.js'
import type { DiscardedDrafts } from '../../../core/ports/ledger.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db } from '../schema/tables.js'
import { updateEach, type EachColumn } from '../update-each.js'
import type { WriteAhead } from '../bulk-writes.js'

const CHUNK = 500

/** A ledger row that does not name `run` (carried forward, manual): what a draft's approval names. */
const notNaming = (run: unknown) => (eb: ExpressionBuilder<any, 'transactions'>) => eb.or([eb('billingRunID', 'is', null), eb('billingRunID', '<>', run)])
/** Drafts a `draftsCarrying` read takes: an approval's page (2,000) in one. */
const CARRYING_CHUNK = 2_000

/** What finalising a draft sets on it (contract 16.1): its number, and its payment state as raised. */
const FINAL_COLUMNS: readonly (EachColumn & { readonly field: keyof Invoice })[] = [
  { name: 'invoiceNumber', type: 'text', field: 'invoiceNumber' },
  { name: 'status', type: 'text', field: 'status' },
  { name: 'amountPaid', type: 'bigint', field: 'amountPaid' },
  { name: 'amountOutstanding', type: 'bigint', field: 'amountOutstanding' },
  { name: 'paidDate', type: 'text', field: 'paidDate' },
  { name: 'updatedStamp', type: 'text', field: 'updatedStamp' },
]

/**
 * Which of a run's drafts hold rows that do not name the run (carried forward, manual): their
 * approval names it on them (`finaliseRunDrafts`). Read with a page of drafts, beside the
 * approval's transaction (approve-drafts.ts), so finalising writes only what needs it.
 */
export async function draftsCarrying(db: Db, dialect: DatabaseDialect, billingRunID: string, invoiceIDs: readonly string[]): Promise<Set<string>> {
  const run = dialect.encodeId(billingRunID)
  const out = new Set<string>()
  for (let i = 0; i < invoiceIDs.length; i += CARRYING_CHUNK) {
    const rows = await db
      .selectFrom('transactions')
      .select('invoiceID')
      .distinct()
      .where('invoiceID', 'in', invoiceIDs.slice(i, i + CARRYING_CHUNK).map((x) => dialect.encodeId(x)))
      .where(notNaming(run))
      .execute()
    for (const r of rows) out.add(String(r.invoiceID))
  }
  return out
}

/**
 * A run's drafts made final (`Ledger.finaliseDrafts`): their values, a statement per few
 * thousand invoices (`updateEach`). Their rows are stored approved since drafting and read so
 * once the invoice is final (draft-lines.ts): only those already in the ledger before the run
 * (carried forward, manual) are written, to name the run that invoiced them, as a run without
 * review names it; the run's own rows name it already. `carrying` are the drafts that hold such
 * rows (`draftsCarrying`).
 */
export async function finaliseRunDrafts(db: Db, dialect: DatabaseDialect, billingRunID: string, invoices: readonly Invoice[], carrying: ReadonlySet<string>, send?: WriteAhead): Promise<void> {
  if (invoices.length === 0) return
  const encode = (column: EachColumn, value: unknown) => (value === null || value === undefined ? null : column.type === 'bigint' ? dialect.encodeBigint(value as bigint) : value)
  // Sent ahead (a pipelined step's `send`): the invoices' update, the largest of an approval's
  // statements, is under way at the server while the step sends its events and deliveries.
  const updated = updateEach(
    db,
    dialect,
    'invoices',
    FINAL_COLUMNS,
    invoices.map((i) => ({ id: dialect.encodeId(i.id), values: FINAL_COLUMNS.map((c) => encode(c, i[c.field])) })),
    send,
  )
  const run = dialect.encodeId(billingRunID)
  const carried = invoices.filter((i) => carrying.has(i.id))
  const sent: Promise<unknown>[] = [updated]
  if (!send) await updated
  for (let i = 0; i < carried.length; i += CHUNK) {
    const ids = carried.slice(i, i + CHUNK).map((x) => dialect.encodeId(x.id))
    const update = db
      .updateTable('transactions')
      .set({ billingRunID: run })
      .where('invoiceID', 'in', ids)
      .where(notNaming(run))
    if (send) sent.push(send(update.compile()))
    else await update.execute()
  }
  await Promise.all(sent)
}

/**
 * A run's drafts removed (`Ledger.discardDrafts`): the rows the run derived (of `derivedTypes`,
 * on its drafts or not: a customer not due on its cycle keeps its calls' row for a later invoice)
 * deleted, which unbills their calls (call-coverage.ts: a call is billed by the row covering it);
 * then the others taken off, unapproved again (stored approved on a draft: draft-lines.ts), then
 * the drafts, their journal lines (invoice-journal-lines.ts) first. While the run is in Review
 * only rows it wrote name it (a draft leaves the rows it carries their own run), so the delete
 * takes nothing else; a review run that failed while approved keeps the rows on the invoices it
 * numbered (a row carried onto one names the run once approved). It reads the ledger by run,
 * which no index serves: a discard is rare, and an index would cost every row a run writes.
 * Returns the customers of the rows deleted (their credit alerts are measured again), in ID
 * order, and the calls' rows' ranges (their allowances are allocated again).
 */
export async function discardRunDrafts(db: Db, dialect: DatabaseDialect, billingRunID: string, derivedTypes: readonly string[]): Promise<DiscardedDrafts> {
  const run = dialect.encodeId(billingRunID)
  const drafts = db.selectFrom('invoices').select('id').where('billingRunID', '=', run).where('status', '=', 'Draft')
  const moved = new Set<string>()
  const calls: { customerID: string; from: Stamp; to: Stamp }[] = []
  if (derivedTypes.length) {
    const deleted = await db
      .deleteFrom('transactions')
      .where('billingRunID', '=', run)
      .where('featureID', 'is', null)
      .where('kind', 'is', null)
      .where('transactionType', 'in', [...derivedTypes])
      .where((eb) => eb.or([eb('invoiceID', 'is', null), eb('invoiceID', 'in', drafts)]))
      .returning(['customerID', 'callsFrom', 'callsTo'])
      .execute()
    for (const r of deleted) {
      if (r.customerID === null) continue
      const customerID = String(r.customerID)
      moved.add(customerID)
      // Minimums cover no calls: only the calls' rows record a range.
      if (r.callsFrom !== null && r.callsTo !== null) calls.push({ customerID, from: String(r.callsFrom) as Stamp, to: String(r.callsTo) as Stamp })
    }
  }
  await db.deleteFrom('invoice_journal_lines').where('invoiceID', 'in', drafts).execute()
  await db.updateTable('transactions').set({ invoiceID: null, approved: 0 }).where('invoiceID', 'in', drafts).execute()
  await db.deleteFrom('invoices').where('billingRunID', '=', run).where('status', '=', 'Draft').execute()
  return { customers: [...moved].sort((a, b) => Number(a) - Number(b)), calls }
}
