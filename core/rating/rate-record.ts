import type { Origination } from '../fields/originations.js'
import { withinMoneyBound, type Money } from '../money/money.js'
import { allowsCarrier, type CarrierAllocated } from '../presets/carrier-allocation.js'
import { withCdrTerms } from './cdr-number-terms.js'
import { findRate } from './find-rate.js'
import { matchNumber, type NumberEntry, type NumberIndex, type UnmatchedReason } from './match-number.js'
import { rateCall } from './rate-call.js'
import { tariffOn, type RatingTariff } from './rating-tariff.js'
import { isSingleRate } from '../tariffs/single-rate.js'
import {
  applyMarkup,
  selectMarkup,
  selectFeatureTariff,
  selectTariff,
  type CustomerTariffSettings,
  type Lookup,
  type NumberTariffSettings,
} from './select-tariff.js'
import type { FeaturesByHolder } from './feature-tariffs.js'
import { dateOfStamp, timeBandOf, type TimeBand } from './time-band.js'
import type { UsageRecord } from './usage-record.js'

/** A number as rating reads it: its matching fields and its per-class tariffs and markups. */
export type RatingNumber = NumberEntry & NumberTariffSettings & CarrierAllocated

/** Everything rating needs besides the record, loaded once per import or billing run. */
export interface RatingContext {
  readonly numbers: NumberIndex<RatingNumber>
  /** Customers' default tariffs and markups, by customer ID. A missing customer has none. */
  readonly customers: Lookup<CustomerTariffSettings & CarrierAllocated>
  /** Call tariffs with their details, by tariff name (number and customer fields hold names). */
  readonly tariffs: Lookup<RatingTariff>
  /** The features of the numbers and customers that name call tariffs (contract 17.7); none when absent. */
  readonly features?: FeaturesByHolder
}

export type UnbilledReason = UnmatchedReason | 'no tariff or markup' | 'missing usage quantity' | 'unsupported base type' | typeof COST_TOO_LARGE

/**
 * Why a call priced at `MAX_MONEY` or more is kept unbilled: no column holds such an amount, nor a
 * run's sum of it, and an absurd price (a rate of billions a minute) is an error to put right, not
 * a charge. Unbilled, the file is still imported, and runs bill everyone else.
 */
export const COST_TOO_LARGE = 'cost beyond the largest amount'

export interface RatedCall {
  readonly numberID: string
  readonly customerID: string
  /** The selected tariff; null when priced by a markup with no tariff selected. */
  readonly tariffID: string | null
  /**
   * The feature whose tariff was selected (contract 17.7), priced by its rate or, lacking one, by
   * the markup fallbacks as `tariffID` records; null when the number's or customer's tariff, or
   * no tariff, was. Its `VATRateCalls` is the call's Call Charges row's (call-vat-rates.ts).
   */
  readonly pricingFeatureID: string | null
  readonly cost: Money
  readonly ratedDuration: number
  readonly ratedBytes: number | null
  readonly ratedEvents: number | null
  readonly timeBand: TimeBand
  /** The band it was priced in: the record's, or the CDR number's it matched through (`CdrTerms`). */
  readonly chargeBand: string
  /** The origination it was priced as: the record's, or the CDR number's it matched through. */
  readonly origination: Origination
  /** `rate`: a tariff detail or the tariff's base rate; `markup`: the wholesale cost marked up. */
  readonly pricedBy: 'rate' | 'markup'
  /** The tariff detail row used, when one was. */
  readonly tariffDetailID: string | null
  /** The markup percentage used, when priced by markup. */
  readonly markupPercent: Money | null
  /** Priced by a rate per minute or second: a discount plan allowance can cover it (contract 11). */
  readonly timed: boolean
  /** Seconds an allowance covered (`allowance`); null when no plan covers the call. */
  readonly allowanceSeconds: number | null
}

/**
 * The milliseconds of a time-priced call's rated duration an allowance covers, or null when no
 * plan covers it; given to `rateRecord` by the caller that tracks allowances.
 */
export type AllowanceOf = (number: RatingNumber, record: UsageRecord, ratedMs: bigint) => bigint | null

export interface UnbilledCall {
  readonly unbilledReason: UnbilledReason
  /** Known when the record matched a number but could not be priced. */
  readonly numberID: string | null
  readonly customerID: string | null
}

/** A record from a carrier the number's allocation does not allow: stored, never billed (contract 17.1). */
export interface IgnoredCall {
  readonly ignoredReason: 'carrier'
  readonly numberID: string
  readonly customerID: string
}

export type RatingResult = RatedCall | UnbilledCall | IgnoredCall

export const isRated = (r: RatingResult): r is RatedCall => !('unbilledReason' in r) && !('ignoredReason' in r)

/**
 * Rates one usage record: matches its number (`matchNumber`), selects the tariff for its class
 * (`selectTariff`), finds the rate (`findRate`) and prices it (`rateCall`). When the tariff
 * has no rate, or no tariff is selected, the markup fallbacks (`selectMarkup`) price the
 * record's `wholesaleCost`; a record without one, or with no markup to apply, is unbilled with
 * `no tariff or markup`. A record from a carrier the number's `carrierCallAllocation` does not
 * allow is ignored (`IgnoredCall`), whatever its price. With `allowance`, a time-priced call is priced for its seconds past what
 * an allowance covers (contract 11). A record matched through a CDR number with a charge band or
 * origination type is priced with those in place of its own (billing-api.md, numbers).
 * Pure: the same record and context always give the same result.
 */
export function rateRecord(given: UsageRecord, context: RatingContext, allowance?: AllowanceOf): RatingResult {
  const match = matchNumber(context.numbers, given)
  if ('unmatchedReason' in match) return { unbilledReason: match.unmatchedReason, numberID: null, customerID: null }
  const record = match.chargeBand === null && match.origination === null ? given : withCdrTerms(given, match)
  const number = match.number
  // Results are written out field by field: a spread of the IDs into a literal this wide makes
  // V8 build each result slowly (bench/rating.ts; figures in bench/RESULTS.md).
  const { numberID, customerID } = number
  const customer = context.customers.get(number.customerID) ?? {}
  if (!allowsCarrier(number, customer, record.carrier)) return { ignoredReason: 'carrier', numberID, customerID }
  const features = context.features
  const byFeature =
    features !== undefined && (features.numbers.size > 0 || features.customers.size > 0)
      ? selectFeatureTariff(features, record.callClass, number, dateOfStamp(record.startTime), context.tariffs)
      : null
  const pricingFeatureID = byFeature ? byFeature.feature.id : null
  const selected = byFeature ?? selectTariff(record.callClass, number, customer, context.tariffs)
  const tariff = selected ? tariffOn(selected.tariff, record.startTime) : null

  const found = tariff ? findRate(tariff, record) : null
  if (tariff && found) {
    let priced = rateCall(tariff, found.rate, record)
    if ('unbilledReason' in priced) return { unbilledReason: priced.unbilledReason, numberID, customerID }
    let allowanceSeconds: number | null = null
    if (priced.timed && allowance) {
      const covered = allowance(number, record, BigInt(Math.round(priced.ratedDuration * 1000)))
      const again = covered === null ? priced : rateCall(tariff, found.rate, record, covered)
      if (covered !== null && !('unbilledReason' in again)) {
        priced = again
        allowanceSeconds = Number(covered) / 1000
      }
    }
    if (!withinMoneyBound(priced.cost)) return { unbilledReason: COST_TOO_LARGE, numberID, customerID }
    return {
      numberID,
      customerID,
      tariffID: tariff.id,
      pricingFeatureID,
      cost: priced.cost,
      ratedDuration: priced.ratedDuration,
      ratedBytes: priced.ratedBytes,
      ratedEvents: priced.ratedEvents,
      timeBand: found.timeBand,
      chargeBand: record.chargeBand,
      origination: record.origination,
      pricedBy: 'rate',
      tariffDetailID: found.rate.detailID,
      markupPercent: null,
      timed: priced.timed,
      allowanceSeconds,
    }
  }

  const markup = selectMarkup(record.callClass, number, customer, tariff)
  if (!markup || record.wholesaleCost === null) return { unbilledReason: 'no tariff or markup', numberID, customerID }
  const cost = applyMarkup(record.wholesaleCost, markup.percent)
  if (!withinMoneyBound(cost)) return { unbilledReason: COST_TOO_LARGE, numberID, customerID }
  return {
    numberID,
    customerID,
    tariffID: tariff?.id ?? null,
    pricingFeatureID,
    cost,
    ratedDuration: record.durationSeconds,
    ratedBytes: record.bytes,
    ratedEvents: record.events,
    timeBand: tariff && isSingleRate(tariff) ? 'any' : timeBandOf(record.startTime),
    chargeBand: record.chargeBand,
    origination: record.origination,
    pricedBy: 'markup',
    tariffDetailID: null,
    markupPercent: markup.percent,
    timed: false,
    allowanceSeconds: null,
  }
}
