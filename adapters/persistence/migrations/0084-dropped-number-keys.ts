import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'

/**
 * Dropped numbers by their `…Key` columns: an import looks them up for the keys no live number
 * matched, so a late file's calls from before a drop are still the number's (`droppedByKeys`,
 * repositories/rating-number-lookup.ts). The keys' indexes (0018, 0020) hold live numbers only;
 * without these, any batch with one unknown key read every number's wide row. Partial, as
 * theirs: a live number costs nothing here.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const f of ['number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4']) {
    await db.schema.createIndex(`numbers_dropped_${f}Key_idx`).on('numbers').column(`${f}Key`).where(sql.ref('isDropped'), '=', 1).execute()
  }
}
