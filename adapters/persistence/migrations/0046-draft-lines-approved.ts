import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'

/**
 * A draft invoice's rows (contract 16.1) are stored approved, as a run without review writes
 * them: a draft's rows read unapproved because their invoice is a draft (draft-lines.ts), so its
 * approval writes the invoices and not every row on them again, which cost as much as the run's
 * insert of them on Postgres (bench/review-run.ts). The drafts are found by this partial index
 * (none or one run's worth), and rows of drafts made before this version are stored approved.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('invoices_drafts_idx').on('invoices').column('id').where(sql.ref('status'), '=', 'Draft').execute()
  await sql`update transactions set approved = 1 where "invoiceID" in (select d.id from invoices d where d.status = 'Draft')`.execute(db)
}
