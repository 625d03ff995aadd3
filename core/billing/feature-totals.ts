import { sub, sum, type Money } from '../money/money.js'
import type { LedgerRow } from '../ports/ledger.js'

/**
 * `totalValueCharged`: the net of every row the engine wrote for the feature (connection and
 * recurring charges, refunds, adjustments; approved or not).
 */
export const totalValueCharged = (ledger: readonly LedgerRow[]): Money => sum(ledger.map((r) => r.amount))

/** `totalValueRemaining`: totalFeatureValue − charged (negative once exceeded); null without a total value. */
export const totalValueRemaining = (totalFeatureValue: Money | null, charged: Money): Money | null =>
  totalFeatureValue === null ? null : sub(totalFeatureValue, charged)
