import { addDays, maxDate, type DateOnly } from '../dates/date-only.js'
import type { Money } from '../money/money.js'
import type { BillingFeature } from './billing-feature.js'
import type { ChargeHistory } from './charge-history.js'
import { expectedConnection, expectedRecurring, type ExpectedCharge } from './expected-charges.js'
import { totalValueCharged, totalValueRemaining } from './feature-totals.js'
import { applyLedgerDiff, roleOf, type LedgerDiff } from './ledger-row.js'
import type { LedgerRow } from '../ports/ledger.js'
import { reconcile } from './reconcile.js'

/** What a billing run (or an action) knows about the feature's state on its cutoff. */
export interface BillingCutoff {
  /** Run cutoff; null for a plan that only revisits what is already charged (actions). */
  readonly cutoff: DateOnly | null
  /** On the cutoff, neither the feature nor an ancestor is suspended or non-billable (contract 5.4). */
  readonly chargeable: boolean
  /**
   * On the cutoff, neither the feature nor an ancestor is non-billable: its connection charge is
   * due (suspension defers only recurring charges). Absent: billable, as for a plan that knows no
   * state; a billing run always says.
   */
  readonly billable?: boolean
}

/** A feature's ledger difference and the read-only fields that follow from the ledger after it. */
export interface FeatureBillingPlan {
  readonly diff: LedgerDiff
  readonly expected: readonly ExpectedCharge[]
  readonly dueDate: DateOnly | null
  readonly totalValueCharged: Money
  readonly totalValueRemaining: Money | null
}

/** The start of the latest recurring period (part) already charged, in any series; null when none. */
export function chargedHorizon(ledger: readonly LedgerRow[]): DateOnly | null {
  let horizon: DateOnly | null = null
  for (const r of ledger) {
    if (r.kind === 'recurring' && roleOf(r.transactionType) === 'charge') horizon = horizon ? maxDate(horizon, r.periodStart) : r.periodStart
  }
  return horizon
}

/**
 * The charges that should exist now. Periods already charged always stay expected (charges are in
 * advance; a smaller cutoff never takes them back); periods starting up to the cutoff are added
 * only while chargeable, so a run after unsuspend or makeBillable back-fills every period that
 * became due. The one-off connection charge waits only while the item is non-billable (runs skip
 * it: billing-api.md, makeNonBillable), so the first run after makeBillable charges it; a
 * suspended item's is charged.
 */
export function expectedNow(feature: BillingFeature, history: ChargeHistory, ledger: readonly LedgerRow[], at: BillingCutoff): ExpectedCharge[] {
  const charged = chargedHorizon(ledger)
  const recurringHorizon = at.chargeable && at.cutoff ? (charged ? maxDate(charged, at.cutoff) : at.cutoff) : charged
  const connectionRow = ledger.find((r) => r.kind === 'connection')?.periodStart ?? null
  const connectionCutoff = at.billable === false ? null : at.cutoff
  const connectionHorizon = connectionCutoff && connectionRow ? maxDate(connectionCutoff, connectionRow) : (connectionCutoff ?? connectionRow)
  const connection = expectedConnection(feature, history, connectionHorizon)
  const recurring = expectedRecurring(feature, history, recurringHorizon)
  // Most features have no connection charge left to expect: no copy of their recurring charges then.
  return connection.length ? [...connection, ...recurring] : recurring
}

/**
 * The ledger difference of `planFeatureBilling` alone, without the figures that follow from it:
 * what billing runs and rebills write (the figures cost a copy of the ledger per feature).
 */
export function planLedgerDiff(feature: BillingFeature, history: ChargeHistory, ledger: readonly LedgerRow[], at: BillingCutoff): LedgerDiff {
  return reconcile(expectedNow(feature, history, ledger, at), ledger, { feature, history })
}

/**
 * One feature's billing: expected charges, reconciled with its ledger. Writing `diff` and running
 * this again with the same inputs returns an empty diff.
 */
export function planFeatureBilling(
  feature: BillingFeature,
  history: ChargeHistory,
  ledger: readonly LedgerRow[],
  at: BillingCutoff,
): FeatureBillingPlan {
  const expected = expectedNow(feature, history, ledger, at)
  const diff = reconcile(expected, ledger, { feature, history })
  const charged = totalValueCharged(applyLedgerDiff(ledger, diff, (_, i) => `new-${i}`))
  return {
    diff,
    expected,
    dueDate: dueDateFrom(feature, expected),
    totalValueCharged: charged,
    totalValueRemaining: totalValueRemaining(feature.totalFeatureValue, charged),
  }
}

/** `dueDate`, the first day not yet charged: the day after the last recurring period charged, else the start date. */
export function dueDateOf(feature: BillingFeature, history: ChargeHistory, ledger: readonly LedgerRow[]): DateOnly | null {
  return dueDateFrom(feature, expectedRecurring(feature, history, chargedHorizon(ledger)))
}

function dueDateFrom(feature: BillingFeature, expected: readonly ExpectedCharge[]): DateOnly | null {
  let last: DateOnly | null = null
  for (const e of expected) if (e.kind === 'recurring') last = last ? maxDate(last, e.periodEnd) : e.periodEnd
  return last ? addDays(last, 1) : feature.startDate
}
