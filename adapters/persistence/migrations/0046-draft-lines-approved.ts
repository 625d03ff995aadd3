import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'

/**
 * A draft invoice's rows (contract 16.1) are stored approved, as a run without review writes
 * them: they read unapproved while their invoice is a draft (draft-lines.ts), so its approval
 * writes the invoices and not every row on them again, which cost as much as the run's insert
 * of them on Postgres (bench/review-run.ts). Rows of drafts made before this version are stored
 * approved here. The drafts are found by the invoices' status index (status, overdueDate).
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`update transactions set approved = 1 where "invoiceID" in (select d.id from invoices d where d.status = 'Draft')`.execute(db)
}
