import type { AnyDb } from '../schema/tables.js'
import { sql } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import { normaliseNumber } from '../../../core/rating/phone-number.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { addColumns } from '../schema/columns.js'
import { laterColumns } from './later-columns.js'

const MATCHED = ['number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4'] as const
const PAGE = 5000

/** The partial indexes' condition, parenthesised to stand as one term of a query's: a number or feature that holds a plan (or names a pool). */
export const holdsAllowance = (pool: boolean) =>
  sql.raw<boolean>(`(${[1, 2, 3, 4].map((i) => `"discountPlan${i}" is not null`).concat(pool ? ['"discountPlanAllowancePoolName" is not null'] : []).join(' or ')})`)

/**
 * Discount plan allowances and rating in batches (contract 11, issue 22).
 *
 * - Numbers keep their `number` and `CDRNumber..4` in the rater's canonical form (`…Key`), indexed
 *   for live numbers: an import looks up the numbers of each batch of records instead of loading
 *   every number, so its memory no longer grows with them (bench/rating.ts).
 * - Numbers and features that hold a plan or name a pool are indexed by customer, so a batch finds
 *   its customers' allowances without reading their other numbers and features.
 * - Calls keep the allowance seconds they used, and the record's origination and recording, so a
 *   late file can price a month's calls again exactly; calls that can use an allowance are
 *   indexed by customer and start, the order the allowance is used in.
 */
export async function up(db: AnyDb, dialect: DatabaseDialect): Promise<void> {
  const added = laterColumns['0018-allowances']
  await addColumns(db, dialect, catalogue.numbers, [...added.numbers!])
  await addColumns(db, dialect, catalogue.calls, [...added.calls!])
  let after: unknown = 0
  for (;;) {
    const rows = await db.selectFrom('numbers').select(['id', ...MATCHED]).where('id', '>', after).orderBy('id').limit(PAGE).execute()
    for (const r of rows) {
      const keys: Record<string, string | null> = {}
      for (const f of MATCHED) keys[`${f}Key`] = typeof r[f] === 'string' && normaliseNumber(r[f]) !== '' ? normaliseNumber(r[f]) : null
      if (Object.values(keys).some((k) => k !== null)) await db.updateTable('numbers').set(keys).where('id', '=', r.id).execute()
    }
    if (rows.length < PAGE) break
    after = rows.at(-1)!.id
  }
  for (const f of MATCHED) {
    await db.schema.createIndex(`numbers_${f}Key_idx`).on('numbers').column(`${f}Key`).where(sql.ref('isDropped'), '=', 0).execute()
  }
  await db.schema.createIndex('numbers_allowance_idx').on('numbers').column('customerID').where(holdsAllowance(true)).execute()
  await db.schema.createIndex('features_allowance_idx').on('features').column('customerID').where(holdsAllowance(false)).execute()
  await db.schema.createIndex('calls_allowance_idx').on('calls').columns(['customerID', 'startTime']).where(sql<boolean>`"allowanceSeconds" is not null`).execute()
}
