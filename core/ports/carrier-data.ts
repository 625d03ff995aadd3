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
  /** Inserts a carrier bill's lines with what they matched. */
  insertBillLines(rows: readonly NewBillLine[]): Promise<void>
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
