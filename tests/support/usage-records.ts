import { parseDatetime } from '../../core/dates/stamp.js'
import type { UsageRecord } from '../../core/rating/usage-record.js'

/** 2026-01-01 is a Thursday: Monday 5 January, Saturday 10, Sunday 11. */
export const MONDAY_9AM = '2026-01-05T09:00:00'

/** A one-minute national call from a geographic number on Monday morning, with the given fields changed (`startTime` as text). */
export function usage(over: Partial<Omit<UsageRecord, 'startTime'>> & { startTime?: string } = {}): UsageRecord {
  const { startTime, ...rest } = over
  return {
    lineNumber: 2,
    callingNumber: '01632 960000',
    dialledNumber: '020 7946 0999',
    startTime: parseDatetime(startTime ?? MONDAY_9AM)!,
    durationSeconds: 60,
    chargeBand: 'UK',
    callClass: 'national',
    carrier: 'Gamma',
    bytes: null,
    events: null,
    origination: 'fixed',
    recorded: false,
    externalID: null,
    wholesaleCost: null,
    ...rest,
  }
}
