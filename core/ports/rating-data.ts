import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'
import type { IgnoreTrafficEntry } from '../rating/match-number.js'
import type { RatingNumber } from '../rating/rate-record.js'
import type { RatingTariff } from '../rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../rating/select-tariff.js'

/**
 * A call as an import writes it, in domain form under the `calls` field names. Every member is
 * always present (null when unset), so all rows of an import share one shape and one column list.
 */
export interface NewCall {
  readonly usageFileID: string | null
  readonly customerID: string | null
  readonly numberID: string | null
  readonly tariffID: string | null
  readonly callingNumber: string
  readonly dialledNumber: string
  readonly startTime: Stamp
  readonly durationSeconds: number
  readonly bytes: number | null
  readonly events: number | null
  readonly callType: string
  readonly chargeBand: string
  readonly carrier: string
  readonly cost: Money | null
  readonly ratedDuration: number | null
  readonly timeBand: string | null
  readonly rated: boolean
  readonly unbilledReason: string | null
  readonly deleted: boolean
  readonly fingerprint: string
  readonly createdStamp: Stamp
  readonly updatedStamp: Stamp
}

/** What rating reads in bulk, with only the columns it needs, and how calls are written. */
export interface RatingData {
  numbers(): Promise<RatingNumber[]>
  ignoreTraffic(): Promise<IgnoreTrafficEntry[]>
  /** Default tariffs and markups of customers that have any. */
  customers(): Promise<Map<string, CustomerTariffSettings>>
  /** Call tariffs with their rate rows, by name. */
  tariffs(): Promise<Map<string, RatingTariff>>
  /** Inserts calls, skipping those whose fingerprint is stored already; returns how many were new. */
  insertCalls(calls: readonly NewCall[]): Promise<number>
  /** How many of a usage file's stored calls are rated. */
  ratedCallsOf(usageFileID: string): Promise<number>
  /** Runs the writes of one import (inside its transaction), with the database's caches sized for a bulk write. */
  importing<T>(work: () => Promise<T>): Promise<T>
}
