import type { Stamp } from '../dates/stamp.js'
import type { Destination } from '../destinations/prefix-table.js'
import type { DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'
import type { FeatureKey } from '../carrier-bills/bill-matcher.js'

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
   * (started by `to`, not ended before `from`), by ID after `afterID`, with their number's
   * `carrierReference`.
   */
  carrierFeatures(carrier: string, from: DateOnly, to: DateOnly, afterID: string | null, limit: number): Promise<CarrierFeature[]>
  /** What these features' customers were billed for them in [from, to]: their transactions whose period overlaps it. */
  billedFor(featureIDs: readonly string[], from: DateOnly, to: DateOnly): Promise<Map<string, Money>>
  /** Inserts a carrier bill's lines, as parsed: `notBilled` until `matchBillLines` says otherwise. */
  insertBillLines(rows: readonly NewBillLine[]): Promise<void>
  /** The bill's lines whose reference is one of `references`, in no particular order. */
  billLinesByReference(carrierBillID: string, references: readonly string[]): Promise<StoredBillLine[]>
  /** A page of the bill's lines by ID after `afterID`. */
  billLinePage(carrierBillID: string, afterID: string | null, limit: number): Promise<StoredBillLine[]>
  /**
   * Sets each line's feature, expected cost, billed amount and outcome, unless the line has a
   * feature of lower ID already: a line matches the first feature (by ID) it matches, however
   * the matches arrive.
   */
  matchBillLines(matches: readonly LineMatch[]): Promise<void>
  /** The bill's lines counted and summed by outcome (the database adds them, not the caller). */
  billTotals(carrierBillID: string): Promise<BillTotals[]>
}

/** A stored line of a carrier's bill as matching reads it. */
export interface StoredBillLine {
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
  readonly outcome: NewBillLine['outcome']
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

/** A carrier bill's line as stored, with its outcome. */
export interface NewBillLine extends BillLine {
  readonly carrierBillID: string
  readonly outcome: 'matched' | 'costDiffers' | 'notBilled'
  readonly featureID: string | null
  readonly expectedCost: Money | null
  readonly billedAmount: Money | null
  readonly createdStamp: string
  readonly updatedStamp: string
}
