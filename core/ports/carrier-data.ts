import type { Stamp } from '../dates/stamp.js'
import type { Destination } from './rating-data.js'
import type { DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'

/** What matching reads of a feature: its codes and patterns, and its number's reference. */
export interface FeatureKey {
  readonly carrierProduct: string | null
  readonly carrierProductMatches: string | null
  readonly carrierReference: string | null
  readonly numberCarrierReference: string | null
  readonly carrierReferenceMatches: string | null
}

/** A destination row as an import of a table's prefixes writes it. */
export interface NewDestination extends Destination {
  readonly destinationTableID: string
  readonly description: string | null
  readonly createdStamp: Stamp
  readonly updatedStamp: Stamp
}

/** The bulk reads and writes of carriers' data (contract 17): many rows at once, in few statements. */
export interface CarrierData {
  /** The prefixes a destination table holds already. */
  prefixesOf(destinationTableID: string): Promise<Set<string>>
  /** Inserts destinations; a prefix the table holds already fails the insert (unique). */
  insertDestinations(rows: readonly NewDestination[]): Promise<void>
  /**
   * A page of the features whose `carrier` is `carrier`, active at some time in [from, to]
   * (started by `to`, neither its end date nor its bill-to date before `from`), by ID after
   * `afterID`, with their number's `carrierReference`.
   */
  carrierFeatures(carrier: string, from: DateOnly, to: DateOnly, afterID: string | null, limit: number): Promise<CarrierFeature[]>
  /** What these features' customers were billed for them in [from, to]: their invoiced (approved) rows, each its share of its days inside the range (`billedShare`). */
  billedFor(featureIDs: readonly string[], from: DateOnly, to: DateOnly): Promise<Map<string, Money>>
  /**
   * A staging area for a bill's lines in the current transaction (a table of its own, which
   * lives until `store`): lines are added as they are read, matched page by page, then stored as
   * the bill's in one statement. Storing the lines first and updating the matched ones wrote every
   * matched row and its index entries twice (bench/RESULTS.md).
   */
  stageBill(): Promise<StagedBill>
  /**
   * Stores features no line of a bill matched (contract 17.4 `notOnCarrierBill`): the
   * reconciliation lists what was counted when the bill was posted, whatever happens to the
   * features after.
   */
  storeNotOnBill(carrierBillID: string, features: readonly NotOnBill[]): Promise<void>
  /** A page of what `storeNotOnBill` stored for a bill, by feature ID after `afterFeatureID`. */
  notOnBill(carrierBillID: string, afterFeatureID: string | null, limit: number): Promise<NotOnBill[]>
  /** A stored bill's lines, to match features against (a bill stored before its `notOnCarrierBill` rows were). */
  storedBill(carrierBillID: string): BillLineSource
  /**
   * Takes deleted features off the carriers' bills, which stay (contract 17.4): a line that
   * matched one keeps its outcome and costs but names no feature; a feature listed as
   * `notOnCarrierBill` leaves the list, and the bill's count and expected cost of those drop by
   * it. `stamp` is the `updatedStamp` of each bill that changes. Called in the delete's
   * transaction, as the purge does for a customer's features (`CustomerRemains`).
   */
  removeFeatures(featureIDs: readonly string[], stamp: Stamp): Promise<void>
}

/** A feature of the carrier, active in the bill's month, that no line of the bill matched. */
export interface NotOnBill {
  readonly featureID: string
  readonly expectedCost: Money
}

/** A bill's lines as matching reads them: by reference, or all of them a page at a time. */
export interface BillLineSource {
  /** The lines whose reference is one of `references`, in no particular order. */
  byReference(references: readonly string[]): Promise<StoredBillLine[]>
  /** A page of the lines, by key after `afterKey`. */
  page(afterKey: string | null, limit: number): Promise<StoredBillLine[]>
}

/** A bill's lines staged while it is reconciled; `id` of its lines is the line's number in the CSV. */
export interface StagedBill extends BillLineSource {
  /** Adds lines as parsed: `notBilled` until `match` says otherwise. */
  add(lines: readonly BillLine[]): Promise<void>
  /**
   * Sets each line's feature, expected cost, billed amount and outcome, unless the line has a
   * feature of lower ID already: a line matches the first feature (by ID) it matches, however
   * the matches arrive.
   */
  match(matches: readonly LineMatch[]): Promise<void>
  /** The lines counted and summed by outcome (the database adds them, not the caller). */
  totals(): Promise<BillTotals[]>
  /** Stores the staged lines as the bill's lines, in line order, and ends the staging. */
  store(carrierBillID: string, stamp: string): Promise<void>
}

/** A stored (or staged) line of a carrier's bill as matching reads it. */
export interface StoredBillLine {
  /** Its key: the stored line's ID, a staged line's number. */
  readonly id: string
  readonly productCode: string
  readonly reference: string
  readonly cost: Money
  /** The feature it matched so far, if any. */
  readonly featureID: string | null
}

/** What a line matched (contract 17.4). */
export interface LineMatch {
  readonly lineID: string
  readonly featureID: string
  readonly expectedCost: Money
  readonly billedAmount: Money
  readonly outcome: 'matched' | 'costDiffers'
}

/** One outcome's lines of a bill: how many, and their sums. */
export interface BillTotals {
  readonly outcome: BillOutcome
  readonly count: number
  readonly cost: Money
  readonly expectedCost: Money
  readonly billedAmount: Money
}

/** A feature as reconciliation reads it (contract 17.4). */
export interface CarrierFeature extends FeatureKey {
  readonly id: string
  readonly customerID: string | null
  readonly serviceChargeCarrier: Money | null
  readonly featureCount: number | null
}

/** A line of a carrier's bill, checked. */
export interface BillLine {
  readonly line: number
  readonly productCode: string
  readonly reference: string
  readonly description: string | null
  readonly quantity: number | null
  readonly cost: Money
  readonly periodFrom: DateOnly | null
  readonly periodTo: DateOnly | null
}

/** A carrier bill line's outcome. */
export type BillOutcome = 'matched' | 'costDiffers' | 'notBilled'
