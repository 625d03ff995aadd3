import { maxDate, type DateOnly } from '../dates/date-only.js'
import { BillingError } from '../errors.js'
import type { Money } from '../money/money.js'
import type { ServiceChargeInterval } from './periods.js'
import type { BillingFeature } from './billing-feature.js'
import { applyChange, applyIncrease, chargeChangeModes, effectiveHistory, versionAt, type ChargeChangeMode, type ChargeHistory, type ChargeVersion } from './charge-history.js'
import { dueDateOf, planFeatureBilling, type FeatureBillingPlan } from './feature-billing.js'
import { roleOf, transactionTypeNames } from './ledger-row.js'
import { layoutRuns } from './layout-runs.js'
import { olderSeriesEnd } from './series-runs.js'
import { keptPeaks, peakCommittedAt } from './peak-count.js'
import type { LedgerRow } from '../ports/ledger.js'

/** The body of `changeRecurringCharge`, already parsed (amount as Money, date as DateOnly). */
export interface ChargeChangeParams {
  /** New unit price; absent or null keeps the one in force on the effective date. */
  readonly serviceCharge?: Money | null
  /** New count; absent or null keeps the one in force on the effective date. */
  readonly featureCount?: number | null
  /** Effective date; default the feature's dueDate. Required for `add`. */
  readonly dateFrom?: DateOnly | null
  /** `replace` (default), `add` or `delta`; anything else is refused. */
  readonly chargeChangeMode?: string | null
  /** The committed count from the effective date (a PATCH, `Peak Count`'s raise); absent keeps each version's. */
  readonly featureCountCommitted?: number | null
  /** The interval from the effective date (a PATCH); absent keeps each version's. */
  readonly serviceChargeInterval?: ServiceChargeInterval
  /** From the effective date the fixed fee tariff prices it (a PATCH leaving `serviceCharge` unset). */
  readonly tariffPriced?: boolean
  /**
   * The annual increase job's change (contract 11): only the price changes, and only until the
   * first later version with a price of its own (`applyIncrease`); a dropped feature takes it too,
   * as the job raises only one still billed on the date.
   */
  readonly annualIncrease?: boolean
}

/** The configuration a change depends on: the configured `transactionTypes` preset list. */
export interface ChargeChangeConfig {
  readonly transactionTypes: readonly string[]
}

/** What to store for a change: the new history, the ledger difference, the feature's new values. */
export interface ChargeChangePlan extends FeatureBillingPlan {
  readonly mode: ChargeChangeMode
  readonly dateFrom: DateOnly
  /** The feature's whole charge history after the change (replaces the stored one). */
  readonly history: ChargeVersion[]
  /**
   * `serviceCharge` and `featureCount` to store on the feature: those of its latest version (no
   * price when the fixed fee tariff prices it: a feature the tariff prices keeps none of its own).
   */
  readonly serviceCharge: Money | null
  readonly featureCount: number
}

const invalid = (message: string, hint: string): BillingError => new BillingError('invalid_charge_change', message, hint)

/**
 * Plans `changeRecurringCharge` (contract 9.4). The change is recorded as a new version of the
 * charge history and the ledger is reconciled against it through the periods already charged (no
 * new period is charged; the next billing run does that), so the run that follows writes nothing
 * for the span the change settled:
 * - `replace`: from `dateFrom` unapproved charges are updated or deleted, approved ones refunded
 *   and charged again at the new rate;
 * - `add`: a new series from `dateFrom`; existing charges from then on stay untouched and the span is
 *   charged again at the new rate;
 * - `delta`: approved charges stay and each period gets one adjustment row for the difference;
 *   unapproved charges are updated in place.
 * A part-period from `dateFrom` is pro-rated.
 */
export function planChargeChange(
  params: ChargeChangeParams,
  feature: BillingFeature,
  history: ChargeHistory,
  ledger: readonly LedgerRow[],
  config: ChargeChangeConfig,
): ChargeChangePlan {
  const mode = params.chargeChangeMode ?? 'replace'
  if (!isMode(mode)) throw invalid(`chargeChangeMode ${JSON.stringify(mode)} is not recognised`, 'Use one of: replace, add, delta.')
  const due = dueDateOf(feature, history, ledger)
  if (mode === 'add') {
    if (!params.dateFrom) throw invalid('add mode needs dateFrom', `Give dateFrom on or before the feature's dueDate (${due ?? 'unset'}).`)
    if (due && params.dateFrom > due) throw invalid(`dateFrom ${params.dateFrom} is after the feature's dueDate ${due}`, `Give dateFrom on or before ${due}.`)
    if (!ledger.some((r) => r.kind === 'recurring' && roleOf(r.transactionType) === 'charge')) {
      throw invalid('add mode needs a feature that already has recurring charges', 'Use replace mode for a feature not yet charged.')
    }
  }
  if (mode === 'delta') {
    const missing = [transactionTypeNames.adjustment, transactionTypeNames.adjustmentRefund].filter((t) => !config.transactionTypes.includes(t))
    if (missing.length > 0) throw invalid(`delta mode needs the transaction types ${missing.join(' and ')}`, 'Configure both adjustment transaction types, or use replace mode.')
  }
  if (params.featureCount != null && (!Number.isInteger(params.featureCount) || params.featureCount < 0)) {
    throw new BillingError('invalid_parameter', `featureCount ${params.featureCount} is not a whole number of 0 or more`, 'Give featureCount as a whole number.')
  }
  if (feature.isDropped && !params.annualIncrease) throw new BillingError('state_not_allowed', 'the feature is dropped', 'Reinstate the feature before changing its recurring charge.')
  const start = feature.startDate
  if (!start) throw new BillingError('state_not_allowed', 'the feature has no startDate', 'Set the feature\'s startDate first.')

  const dateFrom = maxDate(params.dateFrom ?? due ?? start, start)
  const versions = effectiveHistory(history, start)
  const current = versionAt(versions, dateFrom)
  // Without a price of its own the change keeps the fixed fee tariff pricing what it prices (a count change).
  const tariffPriced = params.tariffPriced === true || (params.serviceCharge == null && current?.tariffPriced === true)
  // How far the series before an add runs, fixed now: periods laid out again later must not stretch it.
  const olderThrough = mode === 'add' && dateFrom > start ? olderSeriesEnd(layoutRuns(feature.interval, start, versions, feature.gaps), dateFrom) : undefined
  const featureCount = params.featureCount ?? current?.featureCount ?? 1
  // `Peak Count` with no committed count given: the peak in force on the change's date, raised by
  // its count, never the feature's latest peak, which a later day may have reached (contract 11).
  const peak = feature.committedPeak && params.featureCountCommitted === undefined
  const committed = peak ? Math.max(peakCommittedAt(versions, dateFrom), featureCount) : params.featureCountCommitted
  const changed = (params.annualIncrease ? applyIncrease : applyChange)(
    history,
    {
      from: dateFrom,
      serviceCharge: params.serviceCharge ?? current?.serviceCharge ?? null,
      featureCount,
      ...(committed !== undefined ? { committed } : {}),
      ...(params.serviceChargeInterval !== undefined ? { interval: params.serviceChargeInterval } : {}),
      ...(tariffPriced ? { tariffPriced: true } : {}),
      ...(olderThrough === undefined ? {} : { olderThrough }),
      mode,
    },
    ledger.reduce((m, r) => Math.max(m, r.series), -1),
  )
  const next = peak ? keptPeaks(versions, changed, dateFrom) : changed
  const latest = effectiveHistory(next, start).at(-1)!
  return {
    ...planFeatureBilling(feature, next, ledger, { cutoff: null, chargeable: false }),
    mode,
    dateFrom,
    history: next,
    serviceCharge: latest.tariffPriced ? null : latest.serviceCharge,
    featureCount: latest.featureCount,
  }
}

const isMode = (m: string): m is ChargeChangeMode => (chargeChangeModes as readonly string[]).includes(m)
