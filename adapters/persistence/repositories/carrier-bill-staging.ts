import { CompiledQuery, sql, type ColumnDataType } from 'kysely'
import type { BillLine, BillLineSource, BillTotals, LineMatch, StagedBill, StoredBillLine } from '../../../core/ports/carrier-data.js'
import type { Money } from '../../../core/money/money.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import { anyTables, type Db } from '../schema/tables.js'

/** The staging table: a temporary table, the connection's own, gone with a rollback or `store`. */
const STAGED = 'carrier_bill_staged'
const PARSED = ['line', 'productCode', 'reference', 'description', 'quantity', 'cost', 'periodFrom', 'periodTo'] as const
const MATCHED = ['outcome', 'featureID', 'expectedCost', 'billedAmount'] as const
/** Matches set a statement as a VALUES list: five parameters each, well under both databases' limits. */
const MATCH_CHUNK = 1000
/** Matches set a statement sent as columns (Postgres): a few arrays, whatever the count. */
const COLUMNAR_MATCHES = 10_000

/**
 * `StagedBill` on Kysely: a temporary table keyed by the line's number, with the reference
 * indexed for matching. Temporary tables are not logged (Postgres) and have one index: a
 * 200,000-line bill's rows written, matched and stored cost a third of writing the stored rows
 * and then updating the matched ones (bench/RESULTS.md).
 */
export async function stageBill(db: Db, dialect: DatabaseDialect): Promise<StagedBill> {
  const type = (c: string) => (c === 'line' ? 'integer' : columnType(catalogue.carrierBillLines.byName.get(c)!, dialect))
  let create = db.schema.createTable(STAGED).temporary()
  for (const c of [...PARSED, ...MATCHED]) create = create.addColumn(c, type(c), (col) => (c === 'line' ? col.primaryKey() : col))
  await create.execute()
  await db.schema.createIndex(`${STAGED}_reference`).on(STAGED).column('reference').execute()
  return new KyselyStagedBill(db, dialect, type)
}

class KyselyStagedBill implements StagedBill {
  private readonly source: BillLineSource

  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    private readonly type: (column: string) => ColumnDataType,
  ) {
    this.source = linesOf(db, dialect, STAGED, 'line', null)
  }

  byReference(references: readonly string[]): Promise<StoredBillLine[]> {
    return this.source.byReference(references)
  }

  page(afterKey: string | null, limit: number): Promise<StoredBillLine[]> {
    return this.source.page(afterKey, limit)
  }

  async add(lines: readonly BillLine[]): Promise<void> {
    const d = this.dialect
    const columns = [...PARSED, 'outcome'] as const
    const values = columns.map((c) => lines.map((l) => (c === 'outcome' ? 'notBilled' : c === 'cost' ? d.encodeBigint(l.cost) : l[c])))
    await insertColumns(this.db, d, STAGED, columns, values, lines.length, { types: columns.map(this.type) })
  }

  /** UPDATE … FROM the matches sent column by column (Postgres) or as a VALUES list (SQLite 3.33+). */
  async match(matches: readonly LineMatch[]): Promise<void> {
    const d = this.dialect
    const types = ['integer', d.idRefType, d.types.bigint, d.types.bigint, 'text'] as const
    const columnar = d.columnarRowsSql(types, 'v')
    const size = columnar ? COLUMNAR_MATCHES : MATCH_CHUNK
    for (let at = 0; at < matches.length; at += size) {
      const chunk = matches.slice(at, at + size)
      let p = 1
      const source = columnar ?? `(values ${chunk.map(() => `(${types.map((t) => `cast(${d.placeholder(p++)} as ${t})`).join(', ')})`).join(', ')}) as v`
      const text =
        `update "${STAGED}" set "featureID" = v.column2, "expectedCost" = v.column3, "billedAmount" = v.column4, "outcome" = v.column5 ` +
        `from ${source} where "${STAGED}"."line" = v.column1 ` +
        // A line keeps the lowest feature ID that matches it, whichever write comes first.
        `and ("${STAGED}"."featureID" is null or "${STAGED}"."featureID" > v.column2)`
      const columns = [chunk.map((m) => Number(m.lineID)), chunk.map((m) => d.encodeId(m.featureID)), chunk.map((m) => d.encodeBigint(m.expectedCost)), chunk.map((m) => d.encodeBigint(m.billedAmount)), chunk.map((m) => m.outcome)]
      const params = columnar ? columns.map((c) => d.arrayParameter(c)) : chunk.flatMap((_, r) => columns.map((c) => c[r]))
      await this.db.executeQuery(CompiledQuery.raw(text, params))
    }
  }

  async totals(): Promise<BillTotals[]> {
    const d = this.dialect
    const rows = await anyTables(this.db)
      .selectFrom(STAGED)
      .select([
        'outcome',
        sql<string>`count(*)`.as('count'),
        sql<string>`coalesce(sum("cost"), 0)`.as('cost'),
        sql<string>`coalesce(sum("expectedCost"), 0)`.as('expectedCost'),
        sql<string>`coalesce(sum("billedAmount"), 0)`.as('billedAmount'),
      ])
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

  async store(carrierBillID: string, stamp: string): Promise<void> {
    const d = this.dialect
    const columns = [...PARSED, ...MATCHED].map((c) => `"${c}"`).join(', ')
    const cast = (n: number, c: string) => `cast(${d.placeholder(n)} as ${columnType(catalogue.carrierBillLines.byName.get(c)!, d)})`
    // In line order: the bill's lines are listed by ID, as they were read.
    const text = `insert into "carrier_bill_lines" ("carrierBillID", ${columns}, "createdStamp", "updatedStamp") select ${cast(1, 'carrierBillID')}, ${columns}, ${cast(2, 'createdStamp')}, ${cast(3, 'updatedStamp')} from "${STAGED}" order by "line"`
    await this.db.executeQuery(CompiledQuery.raw(text, [d.encodeId(carrierBillID), stamp, stamp]))
    await this.db.schema.dropTable(STAGED).execute()
  }
}

/**
 * A table's bill lines as matching reads them (`BillLineSource`): by reference in the index on
 * it, or a page at a time by `key`; `billID` limits them to one bill's (the stored lines).
 */
export function linesOf(db: Db, dialect: DatabaseDialect, table: string, key: 'id' | 'line', billID: string | null): BillLineSource {
  const select = () => {
    const q = anyTables(db).selectFrom(table).select([`${key} as key`, 'productCode', 'reference', 'cost', 'featureID'])
    return billID === null ? q : q.where('carrierBillID', '=', dialect.encodeId(billID))
  }
  const decode = (rows: any[]): StoredBillLine[] =>
    rows.map((r) => ({
      id: String(r.key),
      productCode: String(r.productCode),
      reference: String(r.reference),
      cost: dialect.decodeBigint(r.cost) as Money,
      featureID: r.featureID === null ? null : String(r.featureID),
    }))
  return {
    async byReference(references) {
      return references.length === 0 ? [] : decode(await select().where(dialect.inList('reference', references)).execute())
    },
    async page(afterKey, limit) {
      let q = select()
      if (afterKey !== null) q = q.where(key, '>', key === 'id' ? dialect.encodeId(afterKey) : Number(afterKey))
      return decode(await q.orderBy(key).limit(limit).execute())
    },
  }
}
