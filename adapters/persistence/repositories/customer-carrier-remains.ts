import { sql } from 'kysely'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { Db, Integer } from '../schema/tables.js'
import { chunks } from './chunks.js'

/** Features, and bills, named in one statement: well under either database's limit of parameters. */
const CHUNK = 500

/**
 * Takes a purged customer's features off the carriers' bills (contract 5.6, 17.4), as
 * `removeFeaturesFromBills` does a deleted feature's.
 */
export async function removeCarrierRemains(db: Db, dialect: DatabaseDialect, customerID: string, stamp: Stamp): Promise<void> {
  const features = (await db.selectFrom('features').select('id').where('customerID', '=', dialect.encodeId(customerID)).execute()).map((r) => r.id)
  await removeFeaturesFromBills(db, dialect, features, stamp)
}

/**
 * Takes features that are going (a purged customer's, or deleted: contract 5.6, 17.4) off the
 * carriers' bills. A bill is the carrier's, and stays: a line that matched one of them keeps
 * its outcome, costs and what was billed (the bill's totals count it) but no longer names the
 * feature. A feature the bill listed as `notOnCarrierBill` is no longer listed, and the bill's
 * count and expected cost of those drop by it, so that its list and its count stay the same
 * facts (a count with no rows left would have the listing match the features again). Bills are
 * few: each is looked up by its key with the features, never read whole. `features`: IDs as
 * read from the database or as the API names them (a string is encoded as the dialect stores it).
 */
export async function removeFeaturesFromBills(db: Db, dialect: DatabaseDialect, features: readonly Integer[], stamp: Stamp): Promise<void> {
  if (features.length === 0) return
  const ids = features.map((id) => (typeof id === 'string' ? dialect.encodeId(id) : id))
  const bills = (await db.selectFrom('carrier_bills').select('id').execute()).map((r) => r.id)
  for (const some of chunks(ids, CHUNK)) {
    // Migration 0075's partial index: only lines that name a feature.
    await db.updateTable('carrier_bill_lines').set({ featureID: null }).where('featureID', 'is not', null).where('featureID', 'in', some).execute()
    for (const billIDs of chunks(bills, CHUNK)) {
      const listed = await db
        .selectFrom('carrier_bill_missing')
        .select((eb) => ['carrierBillID', eb.fn.countAll<number | string | bigint>().as('n'), eb.fn.sum<number | string | bigint>('expectedCost').as('cost')])
        .where('carrierBillID', 'in', billIDs)
        .where('featureID', 'in', some)
        .groupBy('carrierBillID')
        .execute()
      for (const bill of listed) {
        const n = Number(bill.n)
        const cost = dialect.encodeBigint(dialect.decodeBigint(bill.cost))
        await db
          .updateTable('carrier_bills')
          .set({
            notOnCarrierBillCount: sql<number>`${sql.ref('notOnCarrierBillCount')} - ${n}`,
            notOnCarrierBillExpectedCost: sql<bigint>`${sql.ref('notOnCarrierBillExpectedCost')} - ${cost}`,
            updatedStamp: stamp,
          })
          .where('id', '=', bill.carrierBillID)
          .execute()
      }
      await db.deleteFrom('carrier_bill_missing').where('carrierBillID', 'in', billIDs).where('featureID', 'in', some).execute()
    }
  }
}
