import type { ColumnDataType, Kysely } from 'kysely'
import { callClasses, customerDefault } from '../../../core/fields/call-classes.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { Values } from '../../../core/fields/item.js'
import type { NewCall, RatingData } from '../../../core/ports/rating-data.js'
import type { IgnoreTrafficEntry, IgnoreTrafficType } from '../../../core/rating/match-number.js'
import type { RatingNumber } from '../../../core/rating/rate-record.js'
import type { RatingTariff } from '../../../core/rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../../../core/rating/select-tariff.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { RowCodec } from '../row-codec.js'
import { columnType } from '../schema/columns.js'

const numberColumns = [
  'id',
  'customerID',
  'number',
  'CDRNumber',
  'CDRNumber2',
  'CDRNumber3',
  'CDRNumber4',
  'fallbackMarkup',
  ...callClasses.flatMap((c) => [c.tariff, c.markup]),
]
const settingColumns = numberColumns.filter((c) => c !== 'id' && c !== 'customerID')
const NUMBERS_PAGE = 20_000
const IMPORT_PAGE_CACHE_MIB = 64
const customerColumns = ['id', 'fallbackMarkup', ...callClasses.flatMap((c) => [customerDefault(c.tariff), customerDefault(c.markup)])]

/** Rating's bulk reads: narrow selects, so a large number table stays small in memory. */
export class KyselyRatingData implements RatingData {
  private readonly tariffCodec: RowCodec
  private readonly detailCodec: RowCodec
  /** The column types of CALL_COLUMNS, for databases that take columns as arrays. */
  private readonly callTypes: ColumnDataType[]

  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DatabaseDialect,
  ) {
    this.tariffCodec = new RowCodec(catalogue.tariffs, dialect)
    this.detailCodec = new RowCodec(catalogue.tariffDetails, dialect)
    this.callTypes = CALL_COLUMNS.map((c) => columnType(catalogue.calls.byName.get(c)!, dialect))
  }

  /**
   * Live numbers, read a page at a time and kept with only their set values: most of a
   * number's 30 rating columns are null, and whole rows for 300,000 numbers took 900 MB
   * while an import loaded them (bench/rating.ts). Absent and null read the same to rating.
   */
  async numbers(): Promise<RatingNumber[]> {
    const out: RatingNumber[] = []
    let after: unknown = 0
    for (;;) {
      const rows = await this.db
        .selectFrom('numbers')
        .select(numberColumns)
        .where('isDropped', '=', 0)
        .where('id', '>', after)
        .orderBy('id')
        .limit(NUMBERS_PAGE)
        .execute()
      for (const r of rows) {
        const n: Record<string, unknown> = { numberID: String(r.id), customerID: String(r.customerID) }
        for (const c of settingColumns) if (r[c] !== null && r[c] !== undefined) n[c] = r[c]
        out.push(n as unknown as RatingNumber)
      }
      if (rows.length < NUMBERS_PAGE) return out
      after = rows.at(-1)!.id
    }
  }

  async ignoreTraffic(): Promise<IgnoreTrafficEntry[]> {
    const rows = await this.db.selectFrom('ignore_traffic').select(['number', 'type', 'fromDate']).where('number', 'is not', null).execute()
    return rows.map((r) => ({ number: r.number as string, type: r.type as IgnoreTrafficType, fromDate: r.fromDate }))
  }

  async customers(): Promise<Map<string, CustomerTariffSettings>> {
    const settings = customerColumns.filter((c) => c !== 'id')
    const rows = await this.db
      .selectFrom('customers')
      .select(customerColumns)
      .where((eb) => eb.or(settings.map((c) => eb(c, 'is not', null))))
      .execute()
    return new Map(rows.map((r) => [String(r.id), r as CustomerTariffSettings]))
  }

  async tariffs(): Promise<Map<string, RatingTariff>> {
    const tariffs = (await this.db.selectFrom('tariffs').selectAll().execute()).map((r) => this.tariffCodec.decode(r))
    const details = (await this.db.selectFrom('tariff_details').selectAll().orderBy('id').execute()).map((r) => this.detailCodec.decode(r))
    const byTariff = new Map<string, Values[]>()
    for (const d of details) {
      const list = byTariff.get(d.tariffID as string) ?? []
      list.push(d as Values)
      byTariff.set(d.tariffID as string, list)
    }
    return new Map(
      tariffs.filter((t) => typeof t.name === 'string').map((t) => [t.name as string, { ...t, details: byTariff.get(t.id) ?? [] } as unknown as RatingTariff]),
    )
  }

  /**
   * A 5,000,000-row import into SQLite's default 2 MB page cache wrote 100 GB to the WAL in ten
   * minutes: the three indexes with random keys (fingerprint, customer, number) no longer fit, so
   * every row spilled and re-read their pages. 64 MiB holds their upper levels; the memory is
   * given back when the import ends.
   */
  async importing<T>(work: () => Promise<T>): Promise<T> {
    const restore = await this.dialect.widenPageCache(this.db, IMPORT_PAGE_CACHE_MIB)
    try {
      return await work()
    } finally {
      await restore()
    }
  }

  async ratedCallsOf(usageFileID: string): Promise<number> {
    const row = await this.db
      .selectFrom('calls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('usageFileID', '=', this.dialect.encodeId(usageFileID))
      .where('rated', '=', 1)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Writes calls column by column in one fixed column order: turning each call into a keyed
   * row and collecting the union of keys per batch allocated more than the rest of the write,
   * and an array per row was still a tenth of the server's profile with the collector's share
   * (bench/rating.ts).
   */
  async insertCalls(calls: readonly NewCall[]): Promise<number> {
    const n = calls.length
    if (n === 0) return 0
    const d = this.dialect
    const id = (v: string | null) => (v === null ? null : d.encodeId(v))
    const values = CALL_COLUMNS.map(() => new Array<unknown>(n))
    // In the order of CALL_COLUMNS.
    const [usageFileID, customerID, numberID, tariffID, callingNumber, dialledNumber, startTime, durationSeconds, bytes, events, callType, chargeBand, carrier, cost, ratedDuration, timeBand, rated, unbilledReason, deleted, fingerprint, createdStamp, updatedStamp] = values
    for (let i = 0; i < n; i++) {
      const c = calls[i]
      usageFileID[i] = id(c.usageFileID)
      customerID[i] = id(c.customerID)
      numberID[i] = id(c.numberID)
      tariffID[i] = id(c.tariffID)
      callingNumber[i] = c.callingNumber
      dialledNumber[i] = c.dialledNumber
      startTime[i] = c.startTime
      durationSeconds[i] = c.durationSeconds
      bytes[i] = c.bytes
      events[i] = c.events
      callType[i] = c.callType
      chargeBand[i] = c.chargeBand
      carrier[i] = c.carrier
      cost[i] = c.cost === null ? null : d.encodeBigint(c.cost)
      ratedDuration[i] = c.ratedDuration
      timeBand[i] = c.timeBand
      rated[i] = c.rated ? 1 : 0
      unbilledReason[i] = c.unbilledReason
      deleted[i] = c.deleted ? 1 : 0
      fingerprint[i] = c.fingerprint
      createdStamp[i] = c.createdStamp
      updatedStamp[i] = c.updatedStamp
    }
    return insertColumns(this.db, d, 'calls', CALL_COLUMNS, values, n, { doNothingOn: 'fingerprint', types: this.callTypes })
  }
}

/** The columns an import writes, in the order of `insertCalls`'s column arrays. */
const CALL_COLUMNS = [
  'usageFileID',
  'customerID',
  'numberID',
  'tariffID',
  'callingNumber',
  'dialledNumber',
  'startTime',
  'durationSeconds',
  'bytes',
  'events',
  'callType',
  'chargeBand',
  'carrier',
  'cost',
  'ratedDuration',
  'timeBand',
  'rated',
  'unbilledReason',
  'deleted',
  'fingerprint',
  'createdStamp',
  'updatedStamp',
] as const satisfies readonly (keyof NewCall)[]
