import type { ColumnDataType } from 'kysely'
import { catalogue } from '../../../core/fields/catalogue.js'
import type { NewCall } from '../../../core/ports/rating-data.js'
import type { DatabaseDialect } from '../dialect/dialect.js'
import { insertColumns } from '../insert-rows.js'
import { columnType } from '../schema/columns.js'
import type { Db } from '../schema/tables.js'
import type { WriteAhead } from '../sqlite-thread/worker-driver.js'

/** The columns an import writes, in the order of `insertCalls`'s column arrays (bench/rating.ts's floors insert the same). */
export const CALL_COLUMNS = [
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
export function insertCalls(db: Db, dialect: DatabaseDialect, types: readonly ColumnDataType[], calls: readonly NewCall[], writeAhead?: WriteAhead): Promise<number> {
  const n = calls.length
  if (n === 0) return Promise.resolve(0)
  const d = dialect
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
  return insertColumns(db, d, 'calls', CALL_COLUMNS, values, n, { doNothingOn: 'fingerprint', types, send: writeAhead })
}
