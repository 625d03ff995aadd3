import type { ColumnDataType } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { NewCall } from '../../../core/ports/rating-data.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import { uniqueKey } from '../schema/month-partitions.js'
import type { Db } from '../schema/tables.js'
import type { WriteAhead } from '../bulk-writes.js'
import { claimingInsertSql, claimsKeys, firstOfEachClaim } from './call-key-claims.js'

/** The columns an import writes, in the order of `insertCalls`'s column arrays (bench/rating.ts's floors insert the same). */
export const CALL_COLUMNS = [
  'usageFileID',
  'customerID',
  'numberID',
  'tariffID',
  'pricingFeatureID',
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
  'carrierCost',
  'ratedDuration',
  'timeBand',
  'allowanceSeconds',
  'origination',
  'recorded',
  'rated',
  'unbilledReason',
  'ignoredReason',
  'deleted',
  'callMark',
  'fingerprint',
  'createdStamp',
  'updatedStamp',
] as const satisfies readonly (keyof NewCall)[]

/** The column types of CALL_COLUMNS in a dialect, for databases that take columns as arrays. */
export function callColumnTypes(dialect: DatabaseDialect): ColumnDataType[] {
  return CALL_COLUMNS.map((c) => columnType(catalogue.calls.byName.get(c)!, dialect))
}

/**
 * Writes calls column by column in one fixed column order: turning each call into a keyed
 * row and collecting the union of keys per batch allocated more than the rest of the write,
 * and an array per row was still a tenth of the server's profile with the collector's share
 * (bench/rating.ts).
 */
// Not async: once the insert is sent, nothing here keeps the calls alive (`insertColumns`).
export function insertCalls(db: Db, dialect: DatabaseDialect, types: readonly ColumnDataType[], batch: readonly NewCall[], writeAhead?: WriteAhead): Promise<number> {
  // Where calls are partitioned, those keyed by ID claim their keys in the same statement (call-key-claims.ts).
  const claims = claimsKeys(dialect) && batch.some((c) => c.keyedByID)
  const calls = claims ? firstOfEachClaim(batch) : batch
  const n = calls.length
  if (n === 0) return Promise.resolve(0)
  const d = dialect
  const id = (v: string | null) => (v === null ? null : d.encodeId(v))
  // Each column is copied from a row of nulls at its final length, then filled by index: packed,
  // as the writes thread's copy needs (arrays with holes, as `new Array(n)` makes them, V8 copies
  // several times slower: `EACH_ROW`), and allocated once, where `push` grew and copied each
  // column's store about ten times a batch, 0.55 KB a row (bench/RESULTS.md, session 21).
  const values = CALL_COLUMNS.map(() => nulls(n))
  // In the order of CALL_COLUMNS.
  const [usageFileID, customerID, numberID, tariffID, pricingFeatureID, callingNumber, dialledNumber, startTime, durationSeconds, bytes, events, callType, chargeBand, carrier, cost, carrierCost, ratedDuration, timeBand, allowanceSeconds, origination, recorded, rated, unbilledReason, ignoredReason, deleted, callMark, fingerprint, createdStamp, updatedStamp] = values
  for (let i = 0; i < n; i++) {
    const c = calls[i]
    usageFileID[i] = id(c.usageFileID)
    customerID[i] = id(c.customerID)
    numberID[i] = id(c.numberID)
    tariffID[i] = id(c.tariffID)
    pricingFeatureID[i] = id(c.pricingFeatureID)
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
    carrierCost[i] = c.carrierCost === null ? null : d.encodeBigint(c.carrierCost)
    ratedDuration[i] = c.ratedDuration
    timeBand[i] = c.timeBand
    allowanceSeconds[i] = c.allowanceSeconds
    origination[i] = c.origination
    recorded[i] = c.recorded ? 1 : 0
    rated[i] = c.rated ? 1 : 0
    unbilledReason[i] = c.unbilledReason
    ignoredReason[i] = c.ignoredReason
    deleted[i] = c.deleted ? 1 : 0
    callMark[i] = c.callMark
    fingerprint[i] = c.fingerprint
    createdStamp[i] = c.createdStamp
    updatedStamp[i] = c.updatedStamp
  }
  const doNothingOn = uniqueKey(d, 'calls', ['fingerprint'])
  if (!claims) return insertColumns(db, d, 'calls', CALL_COLUMNS, values, n, { doNothingOn, types, send: writeAhead })
  const keyed = nulls(n)
  for (let i = 0; i < n; i++) keyed[i] = calls[i].keyedByID
  const claimTypes = [...types, 'boolean' as const]
  return insertColumns(db, d, 'calls', CALL_COLUMNS, [...values, keyed], n, { doNothingOn, types: claimTypes, send: writeAhead, columnar: claimingInsertSql(d, CALL_COLUMNS, claimTypes) })
}

/** A packed row of nulls that `nulls` copies from, grown to the longest batch asked for up to `NULL_ROW_MAX`. */
const NULL_ROW: null[] = []
const NULL_ROW_MAX = 10_000

/** `n` nulls in a packed array (`slice` of a packed array is packed; `new Array(n)` has holes). */
function nulls(n: number): unknown[] {
  if (n > NULL_ROW_MAX) return Array.from({ length: n }, () => null)
  while (NULL_ROW.length < n) NULL_ROW.push(null)
  return NULL_ROW.slice(0, n)
}
