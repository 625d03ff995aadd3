import { CompiledQuery, sql, type ColumnDataType } from 'kysely'
import { callClasses, type CallClass } from '../../../core/fields/call-classes.js'
import type { FeatureTariffs } from '../../../core/rating/feature-tariffs.js'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { Values } from '../../../core/fields/item.js'
import type { DateOnly } from '../../../core/dates/date-only.js'
import type { Stamp } from '../../../core/dates/stamp.js'
import type { Money } from '../../../core/money/money.js'
import type { AllowanceCall, AllowanceUpdate, BatchNumbers, NewCall, RatingData } from '../../../core/ports/rating-data.js'
import type { AllowanceHolder } from '../../../core/rating/allowances.js'
import type { Destination } from '../../../core/ports/rating-data.js'
import type { IgnoreTrafficEntry, IgnoreTrafficType } from '../../../core/rating/match-number.js'
import { withPendingIncrease, type RatingTariff } from '../../../core/rating/rating-tariff.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import type { WriteAhead } from '../bulk-writes.js'
import { RowCodec } from '../row-codec.js'
import type { Db } from '../schema/tables.js'
import { holdsAllowance } from '../migrations/0018-allowances.js'
import { namesCallTariff } from '../migrations/0025-rating-rules.js'
import { callColumnTypes, insertCalls } from './call-inserts.js'
import { fromCoveredPage, pageTransaction } from './call-page-coverage.js'
import { IN_CHUNK, numbersByKeys } from './rating-number-lookup.js'
import { stampLiteral } from './stamp-literal.js'
import { chunks } from './chunks.js'

const UPDATE_CHUNK = 500
/** SQLite pages an import keeps in memory (`importing`). */
export const IMPORT_PAGE_CACHE_MIB = 32
const plans = ([1, 2, 3, 4] as const).map((i) => `discountPlan${i}` as const)
const multipliers = ([1, 2, 3, 4] as const).map((i) => `discountPlanMultiplier${i}` as const)
const allowanceCallColumns = ['id', 'customerID', 'numberID', 'tariffID', 'startTime', 'fingerprint', 'durationSeconds', 'bytes', 'events', 'callType', 'chargeBand', 'origination', 'recorded', 'cost', 'ratedDuration', 'allowanceSeconds'] as const
// Written as literals, not parameters: SQLite uses a partial index only when the query's own
// condition is the index's (migrations/0018-allowances.ts).
const live = sql<boolean>`"isDropped" = 0`
/** Live, or dropped with its last day in force (`column`) on `since` or after: what `allowanceHolders` reads. */
const inForceSince = (column: 'updatedDate' | 'billToDate', since: string) => sql<boolean>`(${live} or ("isDropped" = 1 and ${sql.ref(column)} >= ${since}))`
/** A feature not ended before `since`: one that ended earlier covers no call from `since` on. */
const notEndedBefore = (since: string) => sql<boolean>`("endDate" is null or "endDate" >= ${since})`
/** The earlier of two last days; null is no end. */
const earlier = (a: DateOnly | null, b: DateOnly | null): DateOnly | null => (a === null ? b : b === null || a < b ? a : b)

/** A boolean column as either database returns it. */
const isTrue = (v: unknown): boolean => Number(v) === 1 || v === true

/** Rating's bulk reads: narrow selects, so a large number table stays small in memory. */
export class KyselyRatingData implements RatingData {
  private readonly tariffCodec: RowCodec
  private readonly detailCodec: RowCodec
  /** The column types of the calls an import writes (`insertCalls`). */
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
    this.callTypes = callColumnTypes(dialect)
  }

  readonly readsBesideWrites: boolean

  /** A batch's numbers and their customers, from the covering indexes (rating-number-lookup.ts). */
  numbersByKeys(keys: readonly string[], classes: readonly CallClass[]): Promise<BatchNumbers> {
    return numbersByKeys(this.reads, this.dialect, keys, classes)
  }

  async allowanceHolders(customerIDs: readonly string[], since: DateOnly): Promise<AllowanceHolder[]> {
    const out: AllowanceHolder[] = []
    for (const chunk of chunks(customerIDs, IN_CHUNK)) {
      const ids = chunk.map(Number)
      // Both asked at once: beside a transaction, each statement's answer waits for a turn of
      // this process's event loop before the next would be sent (import-usage.ts).
      const [numbers, features] = await Promise.all([
        this.reads
          .selectFrom('numbers')
          .select(['id', 'customerID', 'discountPlanAllowancePoolName', 'isDropped', 'updatedDate', ...plans])
          .where(this.dialect.inList('customerID', ids))
          .where(holdsAllowance(true))
          .where(inForceSince('updatedDate', since))
          .orderBy('id')
          .execute(),
        this.reads
          .selectFrom('features')
          .select(['id', 'customerID', 'numberID', 'discountPlanAllowancePoolName', 'featureCount', 'startDate', 'endDate', 'isDropped', 'billToDate', ...plans, ...multipliers])
          .where(this.dialect.inList('customerID', ids))
          .where(holdsAllowance(false))
          .where(inForceSince('billToDate', since))
          .where(notEndedBefore(since))
          .orderBy('id')
          .execute(),
      ])
      for (const r of numbers) {
        out.push({ kind: 'number', id: String(r.id), customerID: String(r.customerID), numberID: String(r.id), poolName: r.discountPlanAllowancePoolName ?? null, plans: plans.map((p) => r[p] ?? null), multipliers: [], featureCount: null, through: isTrue(r.isDropped) ? r.updatedDate : null })
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
          // Active from its start through its end, or its bill-to date when dropped before that (17.7).
          from: r.startDate ?? null,
          through: earlier(r.endDate ?? null, isTrue(r.isDropped) ? r.billToDate : null),
        })
      }
    }
    return out
  }

  async featureTariffs(customerIDs: readonly string[], classes: readonly CallClass[] | null): Promise<FeatureTariffs[]> {
    // Every class's column is read: the partial index serves only its own condition, and the
    // classes asked for filter the rows here.
    const fields = callClasses.map((c) => c.tariff)
    const asked = callClasses.filter((c) => classes === null || classes.includes(c.key)).map((c) => c.tariff)
    const out: FeatureTariffs[] = []
    if (asked.length === 0) return out
    for (const chunk of chunks(customerIDs, IN_CHUNK)) {
      const rows = await this.reads
        .selectFrom('features')
        .select(['id', 'customerID', 'numberID', 'startDate', 'endDate', 'billToDate', 'isDropped', 'VATRateCalls', ...fields])
        .where(this.dialect.inList('customerID', chunk.map(Number)))
        .where(namesCallTariff)
        .execute()
      for (const r of rows) {
        if (!asked.some((name) => r[name] !== null && r[name] !== undefined)) continue
        const f: Record<string, unknown> = {
          id: String(r.id),
          customerID: String(r.customerID),
          numberID: r.numberID === null ? null : String(r.numberID),
          startDate: r.startDate ?? null,
          endDate: r.endDate ?? null,
          billToDate: r.billToDate ?? null,
          isDropped: isTrue(r.isDropped),
          VATRateCalls: r.VATRateCalls ?? null,
        }
        for (const name of asked) if (r[name] !== null && r[name] !== undefined) f[name] = r[name]
        out.push(f as FeatureTariffs)
      }
    }
    return out
  }

  async allowanceCalls(customerIDs: readonly string[], from: Stamp, to: Stamp): Promise<AllowanceCall[]> {
    const out: AllowanceCall[] = []
    const d = this.dialect
    for (const chunk of chunks(customerIDs, IN_CHUNK)) {
      const calls = this.db
        .selectFrom('calls')
        .selectAll('calls')
        .where(d.inList('customerID', chunk.map(Number)))
        .where('allowanceSeconds', 'is not', null)
        // Literals: one month's statement is planned once a connection (stamp-literal.ts).
        .where('startTime', '>=', stampLiteral(from))
        .where('startTime', '<', stampLiteral(to))
        .where('deleted', '=', 0)
      // Whether a run billed it is derived from the Call Charges rows, for the chunk's calls at once (call-page-coverage.ts).
      const rows = await fromCoveredPage(this.db, calls)
        .select(allowanceCallColumns.map((c) => `calls.${c}` as const))
        .select(pageTransaction().as('transactionID'))
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
    const rows = await this.reads
      .selectFrom('ignore_traffic')
      .select(['number', 'type', 'fromDate', 'numberID', 'reinstatedDate'])
      .where('number', 'is not', null)
      .execute()
    return rows.map((r) => ({
      number: r.number as string,
      type: r.type as IgnoreTrafficType,
      fromDate: r.fromDate,
      numberID: String(r.numberID),
      reinstatedDate: r.reinstatedDate,
    }))
  }

  async destinations(): Promise<(Destination & { table: string })[]> {
    const rows = await this.reads
      .selectFrom('destinations as d')
      .innerJoin('destination_tables as t', 't.id', 'd.destinationTableID')
      .select(['t.name as table', 'd.prefix', 'd.chargeBand', 'd.callClass'])
      .execute()
    return rows as (Destination & { table: string })[]
  }

  async destinationsVersion(): Promise<string> {
    const row = await this.reads
      .selectFrom('destinations')
      .select([sql<string>`count(*)`.as('n'), sql<string>`max("id")`.as('last'), sql<string>`max("updatedStamp")`.as('stamp')])
      .executeTakeFirstOrThrow()
    return `${row.n}:${row.last}:${row.stamp}`
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
      tariffs.filter((t) => typeof t.name === 'string').map((t) => [t.name as string, withPendingIncrease({ ...t, details: byTariff.get(t.id) ?? [] } as unknown as RatingTariff)]),
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

  async callCountsOf(usageFileID: string, starts: { readonly from: Stamp; readonly to: Stamp }): Promise<{ rated: number; ignored: number }> {
    const row = await this.db
      .selectFrom('calls')
      .select([sql<number>`sum(case when "rated" = 1 then 1 else 0 end)`.as('rated'), sql<number>`sum(case when "ignoredReason" is not null then 1 else 0 end)`.as('ignored')])
      .where('usageFileID', '=', this.dialect.encodeId(usageFileID))
      .where('startTime', '>=', starts.from)
      .where('startTime', '<=', starts.to)
      .executeTakeFirstOrThrow()
    return { rated: Number(row.rated ?? 0), ignored: Number(row.ignored ?? 0) }
  }

  async oldKeysThrough(): Promise<string | null> {
    const row = await this.reads.selectFrom('old_call_keys').select('throughCallID').executeTakeFirst()
    const through = row ? this.dialect.decodeBigint(row.throughCallID) : 0n
    return through > 0n ? String(through) : null
  }

  async speltKeysThrough(): Promise<string | null> {
    const row = await this.reads.selectFrom('spelt_carrier_keys').select('throughCallID').executeTakeFirst()
    const through = row ? this.dialect.decodeBigint(row.throughCallID) : 0n
    return through > 0n ? String(through) : null
  }

  async pricingFeaturesUnrecordedThrough(): Promise<string | null> {
    const row = await this.db.selectFrom('unrecorded_pricing_features').select('throughCallID').executeTakeFirst()
    const through = row ? this.dialect.decodeBigint(row.throughCallID) : 0n
    return through > 0n ? String(through) : null
  }

  /**
   * Read beside an import's writes: the calls asked for are those earlier imports committed. At
   * any start, on Postgres each month's partition's unique index (fingerprint first) is asked.
   */
  async storedFingerprints(fingerprints: readonly string[], starts: { readonly from: Stamp; readonly to: Stamp } | null, throughCallID: string): Promise<Set<string>> {
    const out = new Set<string>()
    const through = this.dialect.encodeId(throughCallID)
    for (const chunk of chunks(fingerprints, IN_CHUNK)) {
      let query = this.reads.selectFrom('calls').select('fingerprint').where(this.dialect.inList('fingerprint', chunk)).where('id', '<=', through)
      if (starts) query = query.where('startTime', '>=', starts.from).where('startTime', '<=', starts.to)
      const rows = await query.execute()
      for (const r of rows) if (r.fingerprint !== null) out.add(r.fingerprint)
    }
    return out
  }

  // Not async: once the insert is sent, nothing here keeps the calls alive (call-inserts.ts).
  insertCalls(calls: readonly NewCall[]): Promise<number> {
    return insertCalls(this.db, this.dialect, this.callTypes, calls, this.writeAhead)
  }
}
