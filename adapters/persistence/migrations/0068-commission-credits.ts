import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import type { AnyDb } from '../schema/tables.js'
import { laterColumns } from './later-columns.js'

/**
 * The billing run whose commission statement claws back a credit note's lines (contract 16.3),
 * kept on the note when that run completes (core/billing/commission-credits.ts). Statements
 * chose notes by a window of invoice dates before: two runs of one date both took a note, and a
 * note dated on a run's day after it completed changed that run's statement. Notes already
 * issued go to the first completed run (by invoice date, then ID) dated on or after them, as
 * the window gave them, so the statements already sent keep them; the later of two runs of one
 * date no longer repeats them. The index finds the notes no run has claimed yet. A restore of an
 * archive from before this gives its notes their runs the same way (import-snapshot.ts).
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  await addColumns(db, dialect, catalogue.creditNotes, [...laterColumns['0068-commission-credits'].creditNotes!])
  await claimIssuedCredits(db)
  await db.schema.createIndex('credit_notes_commission_run_idx').on('credit_notes').column('commissionBillingRunID').execute()
}

/** Gives every credit note the first completed run dated on or after it, as the window of invoice dates gave it. */
export async function claimIssuedCredits(db: AnyDb): Promise<void> {
  await sql`update credit_notes set "commissionBillingRunID" = (
      select r.id from billing_runs r where r.status = 'Complete' and r."invoiceDate" >= credit_notes.date order by r."invoiceDate", r.id limit 1)`.execute(db)
}
