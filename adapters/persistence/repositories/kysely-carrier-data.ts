import { CompiledQuery, sql } from 'kysely'
import type { BillTotals, CarrierData, CarrierFeature, LineMatch, NewBillLine, NewDestination, StoredBillLine } from '../../../core/ports/carrier-data.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Money } from '../../../core/money/money.js'
import { IN_CHUNK } from './rating-number-lookup.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import type { Db } from '../schema/tables.js'

const LINE_COLUMNS = ['carrierBillID', 'line', 'productCode', 'reference', 'description', 'quantity', 'cost', 'periodFrom', 'periodTo', 'outcome', 'featureID', 'expectedCost', 'billedAmount', 'createdStamp', 'updatedStamp'] as const
/** Matches set a statement: five parameters each, well under both databases' limits. */
const MATCH_CHUNK = 1000
const DESTINATION_COLUMNS = ['destinationTableID', 'prefix', 'chargeBand', 'callClass', 'description', 'createdStamp', 'updatedStamp'] as const

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
      .where((eb) => eb.or([eb('f.endDate', 'is', null), eb('f.endDate', '>=', from)]))
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
    for (let at = 0; at < featureIDs.length; at += IN_CHUNK) {
      const chunk = featureIDs.slice(at, at + IN_CHUNK)
      const rows = await this.db
        .selectFrom('transactions')
        .select(['featureID', sql<string>`sum("amount")`.as('billed')])
        .where(this.dialect.inList('featureID', chunk.map((id) => this.dialect.encodeId(id) as string | number)))
        .where((eb) => eb(eb.fn.coalesce('dateFrom', 'transactionDate'), '<=', to))
        .where((eb) => eb(eb.fn.coalesce('dateTo', 'dateFrom', 'transactionDate'), '>=', from))
        .groupBy('featureID')
        .execute()
      for (const r of rows as any[]) out.set(String(r.featureID), this.dialect.decodeBigint(r.billed) as Money)
    }
    return out
  }

  async insertBillLines(rows: readonly NewBillLine[]): Promise<void> {
    const d = this.dialect
    const id = (v: string | null) => (v === null ? null : d.encodeId(v))
    const money = (v: Money | null) => (v === null ? null : d.encodeBigint(v))
    const values = LINE_COLUMNS.map((c) =>
      rows.map((r) => (c === 'carrierBillID' || c === 'featureID' ? id(r[c]) : c === 'cost' || c === 'expectedCost' || c === 'billedAmount' ? money(r[c]) : r[c])),
    )
    const types = LINE_COLUMNS.map((c) => columnType(catalogue.carrierBillLines.byName.get(c)!, d))
    await insertColumns(this.db, d, 'carrier_bill_lines', LINE_COLUMNS, values, rows.length, { types })
  }

  async billLinesByReference(carrierBillID: string, references: readonly string[]): Promise<StoredBillLine[]> {
    if (references.length === 0) return []
    const rows = await this.lines(carrierBillID).where(this.dialect.inList('reference', references)).execute()
    return rows.map((r) => this.storedLine(r))
  }

  async billLinePage(carrierBillID: string, afterID: string | null, limit: number): Promise<StoredBillLine[]> {
    let q = this.lines(carrierBillID)
    if (afterID !== null) q = q.where('id', '>', this.dialect.encodeId(afterID))
    const rows = await q.orderBy('id').limit(limit).execute()
    return rows.map((r) => this.storedLine(r))
  }

  /** UPDATE … FROM a VALUES list (SQLite 3.33+, Postgres), which both name `column1`, `column2`, …. */
  async matchBillLines(matches: readonly LineMatch[]): Promise<void> {
    const d = this.dialect
    const types = [d.idRefType, d.idRefType, d.types.bigint, d.types.bigint, 'text']
    for (let at = 0; at < matches.length; at += MATCH_CHUNK) {
      const chunk = matches.slice(at, at + MATCH_CHUNK)
      let p = 1
      const tuples = chunk.map(() => `(${types.map((t) => `cast(${d.placeholder(p++)} as ${t})`).join(', ')})`)
      const text =
        'update "carrier_bill_lines" set "featureID" = v.column2, "expectedCost" = v.column3, "billedAmount" = v.column4, "outcome" = v.column5 ' +
        `from (values ${tuples.join(', ')}) as v where "carrier_bill_lines"."id" = v.column1 ` +
        // A line keeps the lowest feature ID that matches it, whichever write comes first.
        'and ("carrier_bill_lines"."featureID" is null or "carrier_bill_lines"."featureID" > v.column2)'
      const params = chunk.flatMap((m) => [d.encodeId(m.lineID), d.encodeId(m.featureID), d.encodeBigint(m.expectedCost), d.encodeBigint(m.billedAmount), m.outcome])
      await this.db.executeQuery(CompiledQuery.raw(text, params))
    }
  }

  async billTotals(carrierBillID: string): Promise<BillTotals[]> {
    const d = this.dialect
    const rows = await this.db
      .selectFrom('carrier_bill_lines')
      .select([
        'outcome',
        sql<string>`count(*)`.as('count'),
        sql<string>`coalesce(sum("cost"), 0)`.as('cost'),
        sql<string>`coalesce(sum("expectedCost"), 0)`.as('expectedCost'),
        sql<string>`coalesce(sum("billedAmount"), 0)`.as('billedAmount'),
      ])
      .where('carrierBillID', '=', d.encodeId(carrierBillID))
      .groupBy('outcome')
      .execute()
    return rows.map((r: any) => ({
      outcome: r.outcome,
      count: Number(r.count),
      cost: d.decodeBigint(r.cost) as Money,
      expectedCost: d.decodeBigint(r.expectedCost) as Money,
      billedAmount: d.decodeBigint(r.billedAmount) as Money,
    }))
  }

  private lines(carrierBillID: string) {
    return this.db.selectFrom('carrier_bill_lines').select(['id', 'productCode', 'reference', 'cost', 'featureID']).where('carrierBillID', '=', this.dialect.encodeId(carrierBillID))
  }

  private storedLine(r: { id: unknown; productCode: unknown; reference: unknown; cost: unknown; featureID: unknown }): StoredBillLine {
    return {
      id: String(r.id),
      productCode: String(r.productCode),
      reference: String(r.reference),
      cost: this.dialect.decodeBigint(r.cost) as Money,
      featureID: r.featureID === null ? null : String(r.featureID),
    }
  }
}
