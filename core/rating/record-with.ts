import type { UsageRecord } from './usage-record.js'

/** What rating may settle of a record after reading it: its band and class (the destination table), its origination (a CDR number). */
export type RecordPricing = Pick<UsageRecord, 'chargeBand' | 'callClass' | 'origination'> & { readonly lookUpDestination: UsageRecord['lookUpDestination'] }

/**
 * The record with its pricing fields settled. Written out in the reader's field order, not
 * spread: a spread record is an object of another shape, and rating, the fingerprint and the
 * insert then read two shapes of record.
 */
export function recordWith(record: UsageRecord, p: RecordPricing): UsageRecord {
  return {
    lineNumber: record.lineNumber,
    callingNumber: record.callingNumber,
    dialledNumber: record.dialledNumber,
    startTime: record.startTime,
    durationSeconds: record.durationSeconds,
    chargeBand: p.chargeBand,
    callClass: p.callClass,
    carrier: record.carrier,
    bytes: record.bytes,
    events: record.events,
    origination: p.origination,
    recorded: record.recorded,
    externalID: record.externalID,
    wholesaleCost: record.wholesaleCost,
    lookUpDestination: p.lookUpDestination,
  }
}
