import type { BillLineSource, CarrierData, CarrierFeature, NewDestination, NotOnBill, StagedBill } from '../../../core/ports/carrier-data.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import { add, ZERO, type Money } from '../../../core/money/money.js'
import { billedShare } from '../../../core/carrier-bills/billed-share.js'
import { IN_CHUNK } from './rating-number-lookup.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import type { Db } from '../schema/tables.js'
import { linesOf, stageBill } from './carrier-bill-staging.js'
import { removeFeaturesFromBills } from './customer-carrier-remains.js'
import { approvedIs } from './draft-lines.js'

const DESTINATION_COLUMNS = ['destinationTableID', 'prefix', 'chargeBand', 'callClass', 'description', 'createdStamp', 'updatedStamp'] as const
const NOT_ON_BILL_COLUMNS = ['carrierBillID', 'featureID', 'expectedCost'] as const

/** `CarrierData` on Kysely, both databases: column-wise bulk inserts as an import's calls are written. */
export class KyselyCarrierData implements CarrierData {
  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
  ) {}

  async prefixesOf(destinationTableID: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('destinations').select('prefix').where('destinationTableID', '=', this.dialect.encodeId(destinationTableID)).execute()
    return new Set(rows.map((r) => String(r.prefix)))
  }

  async insertDestinations(rows: readonly NewDestination[]): Promise<void> {
    const id = this.dialect.encodeId(rows[0]?.destinationTableID ?? '0')
    const values = DESTINATION_COLUMNS.map((c) => rows.map((r) => (c === 'destinationTableID' ? id : r[c])))
    const types = DESTINATION_COLUMNS.map((c) => columnType(catalogue.destinations.byName.get(c)!, this.dialect))
    await insertColumns(this.db, this.dialect, 'destinations', DESTINATION_COLUMNS, values, rows.length, { types })
  }

  async carrierFeatures(carrier: string, from: DateOnly, to: DateOnly, afterID: string | null, limit: number): Promise<CarrierFeature[]> {
    const d = this.dialect
    let q = this.db
      .selectFrom('features as f')
      .leftJoin('numbers as n', 'n.id', 'f.numberID')
      .select(['f.id', 'f.customerID', 'f.carrierProduct', 'f.carrierProductMatches', 'f.carrierReference', 'f.carrierReferenceMatches', 'n.carrierReference as numberCarrierReference', 'f.serviceChargeCarrier', 'f.featureCount'])
      .where('f.carrier', '=', carrier)
      .where((eb) => eb.or([eb('f.startDate', 'is', null), eb('f.startDate', '<=', to)]))
      // A feature ends at the earlier of its end date and its bill-to date (a drop sets the
      // latter, after any notice: contract 9.3, core/billing featureEnd): both are checked.
      .where((eb) => eb.or([eb('f.endDate', 'is', null), eb('f.endDate', '>=', from)]))
      .where((eb) => eb.or([eb('f.billToDate', 'is', null), eb('f.billToDate', '>=', from)]))
    if (afterID !== null) q = q.where('f.id', '>', d.encodeId(afterID))
    const rows = await q.orderBy('f.id').limit(limit).execute()
    return rows.map((r: any) => ({
      id: String(r.id),
      customerID: r.customerID === null ? null : String(r.customerID),
      carrierProduct: r.carrierProduct,
      carrierProductMatches: r.carrierProductMatches,
      carrierReference: r.carrierReference,
      carrierReferenceMatches: r.carrierReferenceMatches,
      numberCarrierReference: r.numberCarrierReference ?? null,
      serviceChargeCarrier: r.serviceChargeCarrier === null ? null : (d.decodeBigint(r.serviceChargeCarrier) as Money),
      featureCount: r.featureCount === null ? null : Number(r.featureCount),
    }))
  }

  async billedFor(featureIDs: readonly string[], from: DateOnly, to: DateOnly): Promise<Map<string, Money>> {
    const out = new Map<string, Money>()
    const d = this.dialect
    for (let at = 0; at < featureIDs.length; at += IN_CHUNK) {
      const ids = featureIDs.slice(at, at + IN_CHUNK).map((id) => d.encodeId(id) as string | number)
      // Invoiced rows only: a draft's or an unrun change's rows are not billed yet. Each is weighed by billedShare, not summed whole.
      const charged = this.db
        .selectFrom('transactions as t')
        .select(['t.featureID', 't.amount', 't.dateFrom', 't.dateTo', 't.transactionDate'])
        .where(d.inList('t.featureID', ids))
        .where(approvedIs('t', true))
        .where((eb) => eb(eb.fn.coalesce('t.dateFrom', 't.transactionDate'), '<=', to))
        .where((eb) => eb(eb.fn.coalesce('t.dateTo', 't.dateFrom', 't.transactionDate'), '>=', from))
      // A credit note's line (no feature of its own, never approved) takes back from the row it
      // credits: that row's feature, weighed by the same share of the month (its period's dates).
      const credits = this.db
        .selectFrom('transactions as c')
        .innerJoin('transactions as t', 't.id', 'c.creditedTransactionID')
        .select(['t.featureID', 'c.amount', 't.dateFrom', 't.dateTo', 't.transactionDate'])
        .where('c.creditNoteID', 'is not', null)
        .where(d.inList('t.featureID', ids))
        .where(approvedIs('t', true))
        .where((eb) => eb(eb.fn.coalesce('t.dateFrom', 't.transactionDate'), '<=', to))
        .where((eb) => eb(eb.fn.coalesce('t.dateTo', 't.dateFrom', 't.transactionDate'), '>=', from))
      for (const r of [...(await charged.execute()), ...(await credits.execute())] as any[]) {
        const dateFrom = (r.dateFrom ?? r.transactionDate) as DateOnly
        const share = billedShare({ amount: d.decodeBigint(r.amount) as Money, dateFrom, dateTo: (r.dateTo ?? dateFrom) as DateOnly }, from, to)
        const id = String(r.featureID)
        out.set(id, add(out.get(id) ?? ZERO, share))
      }
    }
    return out
  }

  stageBill(): Promise<StagedBill> {
    return stageBill(this.db, this.dialect)
  }

  async storeNotOnBill(carrierBillID: string, features: readonly NotOnBill[]): Promise<void> {
    const d = this.dialect
    const bill = d.encodeId(carrierBillID)
    const values = [features.map(() => bill), features.map((f) => d.encodeId(f.featureID)), features.map((f) => d.encodeBigint(f.expectedCost))]
    await insertColumns(this.db, d, 'carrier_bill_missing', NOT_ON_BILL_COLUMNS, values, features.length, { types: ['bigint', 'bigint', 'bigint'] })
  }

  async notOnBill(carrierBillID: string, afterFeatureID: string | null, limit: number): Promise<NotOnBill[]> {
    const d = this.dialect
    let q = this.db.selectFrom('carrier_bill_missing').select(['featureID', 'expectedCost']).where('carrierBillID', '=', d.encodeId(carrierBillID))
    if (afterFeatureID !== null) q = q.where('featureID', '>', d.encodeId(afterFeatureID))
    const rows = await q.orderBy('featureID').limit(limit).execute()
    return rows.map((r) => ({ featureID: String(d.decodeBigint(r.featureID)), expectedCost: d.decodeBigint(r.expectedCost) as Money }))
  }

  storedBill(carrierBillID: string): BillLineSource {
    return linesOf(this.db, this.dialect, 'carrier_bill_lines', 'id', carrierBillID)
  }

  removeFeatures(featureIDs: readonly string[], stamp: Stamp): Promise<void> {
    // The purge's own work on a customer's features (customer-carrier-remains.ts), for these.
    return removeFeaturesFromBills(this.db, this.dialect, featureIDs, stamp)
  }
}
