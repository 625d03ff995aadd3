import { CompiledQuery, sql, type ColumnDataType } from 'kysely'
import { callClasses, customerDefault, type CallClass } from '../../../core/fields/call-classes.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { Values } from '../../../core/fields/item.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { Money } from '../../../core/money/money.js'
import type { AllowanceCall, AllowanceUpdate, BatchNumbers, NewCall, RatingData } from '../../../core/ports/rating-data.js'
import type { AllowanceHolder } from '../../../core/rating/allowances.js'
import type { IgnoreTrafficEntry, IgnoreTrafficType } from '../../../core/rating/match-number.js'
import type { RatingNumber } from '../../../core/rating/rate-record.js'
import type { RatingTariff } from '../../../core/rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../../../core/rating/select-tariff.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import type { WriteAhead } from '../sqlite-thread/worker-driver.js'
import { RowCodec } from '../row-codec.js'
import { normaliseNumber } from '../../../core/rating/phone-number.js'
import { compareIds } from '../id-order.js'
import { columnType } from '../schema/columns.js'
import { anyTables, type Db } from '../schema/tables.js'
import { holdsAllowance } from '../migrations/0018-allowances.js'
import { creditWatched } from './kysely-credit-control.js'

const matchColumns = ['id', 'customerID', 'number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4', 'fallbackMarkup']
const MATCHED_BY = ['number', 'CDRNumber', 'CDRNumber2', 'CDRNumber3', 'CDRNumber4'] as const
const matchKeys = MATCHED_BY.map((f) => `${f}Key`)
/** Keys or IDs in one statement's IN list. */
const IN_CHUNK = 10_000
const UPDATE_CHUNK = 500
/** SQLite pages an import keeps in memory (`importing`). */
export const IMPORT_PAGE_CACHE_MIB = 32
const CUSTOMER_ID = 'c_id'
const CREDIT_WATCHED = 'c_creditWatched'
const creditWatchedSql = sql<number>`case when ${creditWatched('c')} then 1 else 0 end`

/** A joined row's columns for some call classes: the number's, then its customer's as `c_…` (the tables share some names). */
interface JoinedShape {
  readonly select: any[]
  /** The number's rating columns besides its ID and customer's. */
  readonly settings: readonly string[]
  /** Each customer column with its alias. */
  readonly customer: readonly (readonly [string, string])[]
}

const shapes = new Map<string, JoinedShape>()

/**
 * The columns rating reads for these classes only: a row of every class's tariffs and markups
 * (51 columns) took twice as long to read as one of a class's (bench/rating.ts, RESULTS), and a
 * file's records are mostly of a few classes. One shape per set of classes, made once.
 */
export function joinedShape(classes: readonly CallClass[]): JoinedShape {
  const key = [...new Set(classes)].sort().join(',')
  let shape = shapes.get(key)
  if (!shape) {
    const used = callClasses.filter((c) => classes.includes(c.key))
    const numberColumns = [...matchColumns, ...used.flatMap((c) => [c.tariff, c.markup])]
    const customer = ['fallbackMarkup', ...used.flatMap((c) => [customerDefault(c.tariff), customerDefault(c.markup)])].map((c) => [c, `c_${c}`] as const)
    shape = {
      select: [...numberColumns.map((c) => `n.${c}`), sql.ref('c.id').as(CUSTOMER_ID), ...customer.map(([c, as]) => sql.ref(`c.${c}`).as(as)), creditWatchedSql.as(CREDIT_WATCHED)],
      settings: numberColumns.filter((c) => c !== 'id' && c !== 'customerID'),
      customer,
    }
    shapes.set(key, shape)
  }
  return shape
}
const plans = ([1, 2, 3, 4] as const).map((i) => `discountPlan${i}` as const)
const multipliers = ([1, 2, 3, 4] as const).map((i) => `discountPlanMultiplier${i}` as const)
const allowanceCallColumns = ['id', 'customerID', 'numberID', 'tariffID', 'startTime', 'fingerprint', 'durationSeconds', 'bytes', 'events', 'callType', 'chargeBand', 'origination', 'recorded', 'cost', 'ratedDuration', 'allowanceSeconds', 'transactionID'] as const
// Written as literals, not parameters: SQLite uses a partial index only when the query's own
// condition is the index's (migrations/0018-allowances.ts).
const live = sql<boolean>`"isDropped" = 0`
const liveJoined = sql<boolean>`"n"."isDropped" = 0`

/**
 * Live numbers whose `key` column is one of `keys`, with their customers: read from the covering
 * indexes migration 0020 made for this statement, not from the wide rows (bench/RESULTS.md).
 */
export function numberLookup(db: Db, dialect: DatabaseDialect, key: string, keys: readonly string[], shape: Pick<JoinedShape, 'select'>) {
  return anyTables(db)
    .selectFrom('numbers as n')
    .leftJoin(dialect.throughIndex('customers', 'customers_lookup_idx').as('c'), 'c.id', 'n.customerID')
    .select(shape.select)
    .where(liveJoined)
    .where(dialect.inList(`n.${key}`, keys))
}

const chunks = <T>(xs: readonly T[], size: number): T[][] => {
  const out: T[][] = []
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size))
  return out
}

/** Rating's bulk reads: narrow selects, so a large number table stays small in memory. */
export class KyselyRatingData implements RatingData {
  private readonly tariffCodec: RowCodec
  private readonly detailCodec: RowCodec
  /** The column types of CALL_COLUMNS, for databases that take columns as arrays. */
  private readonly callTypes: ColumnDataType[]

  /** Where numbers, customers, allowance holders and tariffs are read: what an import does not write. */
  private readonly reads: Db

  constructor(
    private readonly db: Db,
    private readonly dialect: DatabaseDialect,
    readsBeside?: Db,
    /** A bulk transaction's way of sending its inserts of calls without waiting (`WriteAhead`). */
    private readonly writeAhead?: WriteAhead,
  ) {
    this.reads = readsBeside ?? db
    this.readsBesideWrites = readsBeside !== undefined
    this.tariffCodec = new RowCodec(catalogue.tariffs, dialect)
    this.detailCodec = new RowCodec(catalogue.tariffDetails, dialect)
    this.callTypes = CALL_COLUMNS.map((c) => columnType(catalogue.calls.byName.get(c)!, dialect))
  }

  readonly readsBesideWrites: boolean

  /**
   * Live numbers by their canonical `…Key` columns, each looked up in its partial index, joined
   * to their customers: an import reads the numbers of each batch of records instead of every
   * number, whose memory grew with the number of numbers, and reads a number's customer in the
   * same statement rather than in two more lookups by customer ID, one for tariffs and one for
   * credit limits (bench/rating.ts; figures in bench/RESULTS.md).
   * Kept with only their set values: most of a number's 30 rating columns are null, and absent
   * and null read the same to rating.
   */
  async numbersByKeys(keys: readonly string[], classes: readonly CallClass[]): Promise<BatchNumbers> {
    const shape = joinedShape(classes)
    const byID = new Map<string, RatingNumber>()
    const customers = new Map<string, CustomerTariffSettings>()
    const creditWatched = new Set<string>()
    // One statement per column, for the keys no column before it matched: a `number` beats a
    // `CDRNumber` (buildNumberIndex), and most records match by `number`, so the later columns
    // are rarely asked at all. (Given an OR of the five columns, SQLite scanned the table.)
    let left = [...new Set(keys)]
    for (const [i, key] of matchKeys.entries()) {
      if (left.length === 0) break
      const matched = new Set<string>()
      for (const chunk of chunks(left, IN_CHUNK)) {
        const rows = await numberLookup(this.reads, this.dialect, key, chunk, shape).execute()
        for (const r of rows) {
          // Matched by its key, so the number the key was made from is set.
          matched.add(normaliseNumber(r[MATCHED_BY[i]]!))
          const n: Record<string, unknown> = { numberID: String(r.id), customerID: String(r.customerID) }
          for (const c of shape.settings) if (r[c] !== null && r[c] !== undefined) n[c] = r[c]
          byID.set(n.numberID as string, n as unknown as RatingNumber)
          if (r[CUSTOMER_ID] === null || customers.has(n.customerID as string)) continue
          const customer: Record<string, unknown> = {}
          for (const [column, as] of shape.customer) if (r[as] !== null && r[as] !== undefined) customer[column] = r[as]
          customers.set(n.customerID as string, customer as CustomerTariffSettings)
          if (Number(r[CREDIT_WATCHED]) === 1) creditWatched.add(n.customerID as string)
        }
      }
      left = left.filter((k) => !matched.has(k))
    }
    // By ID: among numbers claiming the same digits the first wins (buildNumberIndex).
    const numbers = [...byID.values()].sort((a, b) => compareIds(a.numberID, b.numberID))
    return { numbers, customers, creditWatched }
  }

  async allowanceHolders(customerIDs: readonly string[]): Promise<AllowanceHolder[]> {
    const out: AllowanceHolder[] = []
    for (const chunk of chunks(customerIDs, IN_CHUNK)) {
      const ids = chunk.map(Number)
      // Both asked at once: beside a transaction, each statement's answer waits for a turn of
      // this process's event loop before the next would be sent (import-usage.ts).
      const [numbers, features] = await Promise.all([
        this.reads
          .selectFrom('numbers')
          .select(['id', 'customerID', 'discountPlanAllowancePoolName', ...plans])
          .where(this.dialect.inList('customerID', ids))
          .where(holdsAllowance(true))
          .where(live)
          .orderBy('id')
          .execute(),
        this.reads
          .selectFrom('features')
          .select(['id', 'customerID', 'numberID', 'discountPlanAllowancePoolName', 'featureCount', ...plans, ...multipliers])
          .where(this.dialect.inList('customerID', ids))
          .where(holdsAllowance(false))
          .where(live)
          .orderBy('id')
          .execute(),
      ])
      for (const r of numbers) {
        out.push({ kind: 'number', id: String(r.id), customerID: String(r.customerID), numberID: String(r.id), poolName: r.discountPlanAllowancePoolName ?? null, plans: plans.map((p) => r[p] ?? null), multipliers: [], featureCount: null })
      }
      for (const r of features) {
        out.push({
          kind: 'feature',
          id: String(r.id),
          customerID: String(r.customerID),
          numberID: r.numberID === null ? null : String(r.numberID),
          poolName: r.discountPlanAllowancePoolName ?? null,
          plans: plans.map((p) => r[p] ?? null),
          multipliers: multipliers.map((m) => (r[m] === null ? null : Number(r[m]))),
          featureCount: r.featureCount === null ? null : Number(r.featureCount),
        })
      }
    }
    return out
  }

  async allowanceCalls(customerIDs: readonly string[], from: Stamp, to: Stamp): Promise<AllowanceCall[]> {
    const out: AllowanceCall[] = []
    const d = this.dialect
    for (const chunk of chunks(customerIDs, IN_CHUNK)) {
      const rows = await this.db
        .selectFrom('calls')
        .select(allowanceCallColumns)
        .where(d.inList('customerID', chunk.map(Number)))
        .where('allowanceSeconds', 'is not', null)
        .where('startTime', '>=', from)
        .where('startTime', '<', to)
        .where('deleted', '=', 0)
        .execute()
      for (const r of rows) {
        out.push({
          id: String(r.id),
          customerID: String(r.customerID),
          numberID: String(r.numberID),
          tariffID: r.tariffID === null ? null : String(r.tariffID),
          // An import writes a call's start, fingerprint, class and band (a record without them is refused).
          startTime: r.startTime!,
          fingerprint: r.fingerprint!,
          durationSeconds: Number(r.durationSeconds),
          bytes: r.bytes === null ? null : Number(r.bytes),
          events: r.events === null ? null : Number(r.events),
          callType: r.callType!,
          chargeBand: r.chargeBand!,
          origination: r.origination ?? 'fixed',
          recorded: Number(r.recorded) === 1,
          cost: r.cost === null ? null : (d.decodeBigint(r.cost) as Money),
          ratedDuration: r.ratedDuration === null ? null : Number(r.ratedDuration),
          allowanceSeconds: Number(r.allowanceSeconds),
          billed: r.transactionID !== null,
        })
      }
    }
    return out
  }

  /** Many rows' new prices in one statement: UPDATE … FROM a VALUES list (SQLite 3.33+, Postgres). */
  async updateAllowances(updates: readonly AllowanceUpdate[]): Promise<void> {
    const d = this.dialect
    const types = [d.idRefType, d.types.bigint, d.types.real, 'text']
    for (const chunk of chunks(updates, UPDATE_CHUNK)) {
      let p = 1
      const tuples = chunk.map(() => `(${types.map((t) => `cast(${d.placeholder(p++)} as ${t})`).join(', ')})`)
      const text = `update "calls" set "cost" = v.column2, "allowanceSeconds" = v.column3, "updatedStamp" = v.column4 from (values ${tuples.join(', ')}) as v where "calls"."id" = v.column1`
      const params = chunk.flatMap((u) => [d.encodeId(u.id), d.encodeBigint(u.cost), u.allowanceSeconds, u.updatedStamp])
      await this.db.executeQuery(CompiledQuery.raw(text, params))
    }
  }

  async ignoreTraffic(): Promise<IgnoreTrafficEntry[]> {
    const rows = await this.reads.selectFrom('ignore_traffic').select(['number', 'type', 'fromDate']).where('number', 'is not', null).execute()
    return rows.map((r) => ({ number: r.number as string, type: r.type as IgnoreTrafficType, fromDate: r.fromDate }))
  }

  async tariffs(): Promise<Map<string, RatingTariff>> {
    const tariffs = (await this.reads.selectFrom('tariffs').selectAll().execute()).map((r) => this.tariffCodec.decode(r))
    const details = (await this.reads.selectFrom('tariff_details').selectAll().orderBy('id').execute()).map((r) => this.detailCodec.decode(r))
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
   * every row spilled and re-read their pages. A wider cache keeps their upper levels. It once
   * also had to keep the batch lookups' number and customer pages (64 MiB; 16 MiB made the import
   * 44 % slower); the lookups now read on their own connection (`Database.readsBeside`), and
   * 32 MiB imports as fast as 64 did, for 30 MB less at the server's peak (bench/rating.ts;
   * figures in bench/RESULTS.md). The memory is given back when the import ends.
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
  // Not async: once the insert is sent, nothing here keeps the calls alive (`insertColumns`).
  insertCalls(calls: readonly NewCall[]): Promise<number> {
    const n = calls.length
    if (n === 0) return Promise.resolve(0)
    const d = this.dialect
    const id = (v: string | null) => (v === null ? null : d.encodeId(v))
    // Filled with push, not by index: a SQLite file's writes thread is sent a copy, and V8 copies
    // arrays with holes (as `new Array(n)` makes them) several times slower (`EACH_ROW`).
    const values = CALL_COLUMNS.map(() => [] as unknown[])
    // In the order of CALL_COLUMNS.
    const [usageFileID, customerID, numberID, tariffID, callingNumber, dialledNumber, startTime, durationSeconds, bytes, events, callType, chargeBand, carrier, cost, ratedDuration, timeBand, allowanceSeconds, origination, recorded, rated, unbilledReason, deleted, fingerprint, createdStamp, updatedStamp] = values
    for (let i = 0; i < n; i++) {
      const c = calls[i]
      usageFileID.push(id(c.usageFileID))
      customerID.push(id(c.customerID))
      numberID.push(id(c.numberID))
      tariffID.push(id(c.tariffID))
      callingNumber.push(c.callingNumber)
      dialledNumber.push(c.dialledNumber)
      startTime.push(c.startTime)
      durationSeconds.push(c.durationSeconds)
      bytes.push(c.bytes)
      events.push(c.events)
      callType.push(c.callType)
      chargeBand.push(c.chargeBand)
      carrier.push(c.carrier)
      cost.push(c.cost === null ? null : d.encodeBigint(c.cost))
      ratedDuration.push(c.ratedDuration)
      timeBand.push(c.timeBand)
      allowanceSeconds.push(c.allowanceSeconds)
      origination.push(c.origination)
      recorded.push(c.recorded ? 1 : 0)
      rated.push(c.rated ? 1 : 0)
      unbilledReason.push(c.unbilledReason)
      deleted.push(c.deleted ? 1 : 0)
      fingerprint.push(c.fingerprint)
      createdStamp.push(c.createdStamp)
      updatedStamp.push(c.updatedStamp)
    }
    return insertColumns(this.db, d, 'calls', CALL_COLUMNS, values, n, { doNothingOn: 'fingerprint', types: this.callTypes, send: this.writeAhead })
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
  'allowanceSeconds',
  'origination',
  'recorded',
  'rated',
  'unbilledReason',
  'deleted',
  'fingerprint',
  'createdStamp',
  'updatedStamp',
] as const satisfies readonly (keyof NewCall)[]
