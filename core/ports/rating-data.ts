import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { CallClass } from '../fields/call-classes.js'
import type { Money } from '../money/money.js'
import type { Origination } from '../fields/originations.js'
import type { AllowanceHolder } from '../rating/allowances.js'
import type { FeatureTariffs } from '../rating/feature-tariffs.js'
import type { IgnoreTrafficEntry } from '../rating/match-number.js'
import type { RatingNumber } from '../rating/rate-record.js'
import type { RatingTariff } from '../rating/rating-tariff.js'
import type { CustomerTariffSettings } from '../rating/select-tariff.js'

/** What a destination table gives a dialled number (contract 17.2). */
export interface Destination {
  readonly prefix: string
  readonly chargeBand: string
  readonly callClass: string
}

/**
 * A call as an import writes it, in domain form under the `calls` field names. Every member is
 * always present (null when unset), so all rows of an import share one shape and one column list.
 */
export interface NewCall {
  readonly usageFileID: string | null
  readonly customerID: string | null
  readonly numberID: string | null
  readonly tariffID: string | null
  /** The feature whose tariff priced it (`RatedCall.pricingFeatureID`); null for others and unrated calls. */
  readonly pricingFeatureID: string | null
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
  /** The record's `wholesaleCost`, kept for margin (contract 16.2). */
  readonly carrierCost: Money | null
  readonly ratedDuration: number | null
  readonly timeBand: string | null
  /** 0 for a call a plan may cover (the allowance is allocated after the import), else null. */
  readonly allowanceSeconds: number | null
  readonly origination: Origination
  readonly recorded: boolean
  readonly rated: boolean
  readonly unbilledReason: string | null
  /** `carrier`: from a carrier the number's allocation does not allow (contract 17.1); never billed. */
  readonly ignoredReason: string | null
  readonly deleted: boolean
  /** The import's call mark (`CallMarks.current`). */
  readonly callMark: number
  readonly fingerprint: string
  /**
   * Keyed by the carrier's record ID (`externalID`), whatever its start: where calls are
   * partitioned by month (Postgres), whose unique index holds the start, its key is claimed in a
   * table of its own in the same statement, so a re-send started in another month is a duplicate.
   */
  readonly keyedByID: boolean
  readonly createdStamp: Stamp
  readonly updatedStamp: Stamp
}

/** A stored call that may use an allowance, with what pricing it again reads. */
export interface AllowanceCall {
  readonly id: string
  readonly customerID: string
  readonly numberID: string
  readonly tariffID: string | null
  readonly startTime: Stamp
  /** Orders calls that start in the same second, the same way whatever order they came in. */
  readonly fingerprint: string
  readonly durationSeconds: number
  readonly bytes: number | null
  readonly events: number | null
  readonly callType: string
  readonly chargeBand: string
  readonly origination: Origination
  readonly recorded: boolean
  readonly cost: Money | null
  readonly ratedDuration: number | null
  readonly allowanceSeconds: number
  /** On a Call Charges transaction already. */
  readonly billed: boolean
}

/** A call's price after its allowance changed. */
export interface AllowanceUpdate {
  readonly id: string
  readonly cost: Money
  readonly allowanceSeconds: number
  readonly updatedStamp: Stamp
}

/** A batch's numbers and what their customers' rows say to rating and to credit control. */
export interface BatchNumbers {
  /** Live numbers by ID, then dropped ones (with `droppedDate`) for the keys no live number has. */
  readonly numbers: RatingNumber[]
  /** Default tariffs and markups of the numbers' customers, by customer ID. */
  readonly customers: Map<string, CustomerTariffSettings>
  /**
   * Those customers with a credit limit or a stored credit alert of their own (contract 10.6):
   * the others' alerts can only come from a number's `creditLimit`.
   */
  readonly creditWatched: ReadonlySet<string>
}

/**
 * What rating reads, a batch of records at a time (memory follows the batch, not the number of
 * numbers), with only the columns it needs, and how calls are written.
 */
export interface RatingData {
  /**
   * Whether this reader's lookups (numbers, customers, holders, tariffs) run on another
   * connection, beside an open write transaction: an import then looks up its next batch while
   * the last one is written. False where there is no other connection (in-memory SQLite, an
   * embedder's SQLite connection).
   */
  readonly readsBesideWrites: boolean
  /**
   * Live numbers whose `number` or `CDRNumber..4`, in canonical form (`normaliseNumber`), is one
   * of `keys`, with their customers: read together, as one batch's lookup. Only the tariffs and
   * markups of `classes` (the batch's records' classes) are read.
   */
  numbersByKeys(keys: readonly string[], classes: readonly CallClass[]): Promise<BatchNumbers>
  ignoreTraffic(): Promise<IgnoreTrafficEntry[]>
  /** Every destination table's prefixes, with the table's name (contract 17.2). */
  destinations(): Promise<(Destination & { readonly table: string })[]>
  /** Text that changes whenever a destination is added or removed: the loaded tables are kept until it does. */
  destinationsVersion(): Promise<string>
  /** Call tariffs with their rate rows, by name. */
  tariffs(): Promise<Map<string, RatingTariff>>
  /**
   * The features of these customers, on a number or on the customer itself, that name a call
   * tariff for one of `classes` (every class when null): one batch's lookup (contract 17.7).
   */
  featureTariffs(customerIDs: readonly string[], classes: readonly CallClass[] | null): Promise<FeatureTariffs[]>
  /**
   * The numbers and features of these customers that hold a discount plan, and the numbers that
   * name a pool: live ones, and dropped or ended ones in force on `since` or after, each with its
   * `through` (a number's drop date, `updatedDate`; a feature's `endDate`, or its `billToDate` when
   * dropped before that): a dropped number's calls up to its drop still use them. A feature's
   * `from` is its `startDate`: its plans cover no call before it.
   */
  allowanceHolders(customerIDs: readonly string[], since: DateOnly): Promise<AllowanceHolder[]>
  /** The undeleted calls of these customers started in [from, to) that may use an allowance. */
  allowanceCalls(customerIDs: readonly string[], from: Stamp, to: Stamp): Promise<AllowanceCall[]>
  updateAllowances(updates: readonly AllowanceUpdate[]): Promise<void>
  /**
   * Inserts calls, skipping those whose fingerprint is stored already; returns how many were new.
   * A caller may call again before the last call's answer: the inserts are made in call order.
   */
  insertCalls(calls: readonly NewCall[]): Promise<number>
  /**
   * How many of a usage file's stored calls are rated, and how many ignored (`ignoredReason`).
   * `starts` bounds their start times (the file's first and last): on Postgres only those
   * months' partitions of calls are read.
   */
  callCountsOf(usageFileID: string, starts: { readonly from: Stamp; readonly to: Stamp }): Promise<{ readonly rated: number; readonly ignored: number }>
  /**
   * The last call whose duplicate key may be of its looked-up band and class, as imports made
   * them before keys were of the record as read (`lookedUpKeys` in `older-keys.ts`); null when no call is.
   */
  oldKeysThrough(): Promise<string | null>
  /**
   * The last call whose key may hold its carrier as spelt, as imports made them before keys held
   * it as compared (`speltCarrierKeys` in `older-keys.ts`, migration 0087); null when no call is.
   */
  speltKeysThrough(): Promise<string | null>
  /**
   * The last call stored before calls recorded the feature that priced them (migration 0088):
   * such a call's pricing feature is found again from today's features (call-vat-rates.ts); null
   * when no call is.
   */
  pricingFeaturesUnrecordedThrough(): Promise<string | null>
  /**
   * Which of these fingerprints calls up to `throughCallID`, started in [from, to] (at any start
   * when `starts` is null), hold: on Postgres only those months' partitions are read.
   */
  storedFingerprints(fingerprints: readonly string[], starts: { readonly from: Stamp; readonly to: Stamp } | null, throughCallID: string): Promise<Set<string>>
  /** Runs the writes of one import (inside its transaction), with the database's caches sized for a bulk write. */
  importing<T>(work: () => Promise<T>): Promise<T>
}
