import { addDays, daysBetween, maxDate, minDate, type DateOnly } from '../dates/date-only.js'
import { round, sub, times, ZERO, type Money } from '../money/money.js'
import { billedCount, featureEnd, type BillingFeature } from './billing-feature.js'
import { effectiveHistory, versionAt, type ChargeHistory, type ChargeVersion } from './charge-history.js'
import type { ChargeKind } from '../ports/ledger.js'
import { discountAmounts, discountOn } from './discounts.js'
import { FROM_THE_FIRST, instalmentIn, instalmentStarts } from './instalments.js'
import { daysCovered, layoutOf, periodContaining, type Period } from './periods.js'
import { layoutRuns } from './layout-runs.js'
import { seriesRuns } from './series-runs.js'
import { proRate } from './pro-rate.js'
import { peakCommittedAt } from './peak-count.js'

/** How a slot whose approved charges no longer match is corrected (see `reconcile`). */
export type SlotStyle = 'replace' | 'delta'

/** A charge that should exist in the ledger. */
export interface ExpectedCharge {
  readonly kind: ChargeKind
  /** A `Recurring Charge Discount` row (contract 11), beside the charge of the same part. */
  readonly discount?: true
  readonly series: number
  /** Start of the billing period it belongs to: groups it with the period's other rows. */
  readonly slotStart: DateOnly
  readonly periodStart: DateOnly
  /** Inclusive. */
  readonly periodEnd: DateOnly
  /** The billing period's first day (charged in advance), also for a part split off by a change. */
  readonly transactionDate: DateOnly
  readonly quantity: number
  /** Unit price. */
  readonly rate: Money
  /** rate × quantity, pro-rated by days, whole pence. */
  readonly amount: Money
  /** The carrier's cost of the same charge, worked out as `amount` is from the carrier's price (contract 16.2); zero for a discount. */
  readonly cost: Money
  readonly style: SlotStyle
}

/** The connection charge and every recurring charge of periods starting on or before `cutoff`. */
export function expectedCharges(feature: BillingFeature, history: ChargeHistory, cutoff: DateOnly): ExpectedCharge[] {
  return [...expectedConnection(feature, history, cutoff), ...expectedRecurring(feature, history, cutoff)]
}

/**
 * The one-off connection charge: connectionCharge × featureCount (the count in force on the start
 * date), on the start date, once the start date is on or before `cutoff`. None when the charge is
 * unset or zero, or the feature ends before it starts.
 */
export function expectedConnection(feature: BillingFeature, history: ChargeHistory, cutoff: DateOnly | null): ExpectedCharge[] {
  const start = feature.startDate
  const rate = feature.connectionCharge
  const end = featureEnd(feature)
  if (!start || !cutoff || start > cutoff || rate === null || (end !== null && end < start)) return []
  const quantity = versionAt(effectiveHistory(history, start), start)?.featureCount ?? 1
  const amount = round(times(rate, quantity), 2)
  if (amount === 0n) return []
  const cost = feature.connectionChargeCarrier === null ? ZERO : round(times(feature.connectionChargeCarrier, quantity), 2)
  return [{ kind: 'connection', series: 0, slotStart: start, periodStart: start, periodEnd: start, transactionDate: start, quantity, rate, amount, cost, style: 'replace' }]
}

interface Piece {
  start: DateOnly
  end: DateOnly
  version: ChargeVersion
  quantity: number
}

/**
 * Recurring charges of every period starting on or before `horizon`, through the feature's end
 * (end date or bill-to date, the last period pro-rated), periods laid out by the interval in
 * force (see `LayoutRun`). A period is split where a version takes
 * effect inside it, each part pro-rated over the whole period's days; adjacent parts with the same
 * price and count are kept whole. A series (see `ChargeVersion`) runs until the next series starts,
 * through the end of the period that day falls in: an `add` never shortens what was charged before.
 */
export function expectedRecurring(feature: BillingFeature, history: ChargeHistory, horizon: DateOnly | null): ExpectedCharge[] {
  const start = feature.startDate
  if (!start || !horizon || history.length === 0) return []
  const end = featureEnd(feature)
  const versions = effectiveHistory(history, start)
  const layouts = layoutRuns(feature.interval, start, versions, feature.gaps)
  const starts = feature.instalments && layouts.length > 1 ? instalmentStarts(feature.instalments, layouts) : null
  const out: ExpectedCharge[] = []
  for (const run of seriesRuns(versions, layouts)) {
    const last = run.to && end ? minDate(run.to, end) : (run.to ?? end)
    // Each stretch of one interval (most features have one) lays out its own periods (contract 17.5).
    for (let i = 0; i < layouts.length; i++) {
      const layout = layouts[i]
      if (layout.to !== null && layout.to < run.from) continue
      if (last !== null && layout.from > last) break
      const first = maxDate(run.from, layout.from)
      const through = earliest(earliest(last, layout.to), layout.chargedTo)
      const periods = layoutOf(layout.schedule)
      for (let k = periods.indexOf(first); ; k++) {
        const period = periods.at(k)
        if (period.start > horizon || (through !== null && period.start > through)) break
        const from = maxDate(period.start, first)
        const to = through !== null ? minDate(period.end, through) : period.end
        if (from > to) break
        // a period cut short by the feature's end, or by a drop a reinstate ended, is settled by
        // refund (contract 5.5), even after a delta change
        const cutByEnd = (end !== null && end < period.end) || (layout.chargedTo !== null && layout.chargedTo < period.end)
        const instalment = feature.instalments ? instalmentIn(feature.instalments, starts?.[i] ?? FROM_THE_FIRST, k) : null
        if (feature.instalments && instalment === null && run.versions.every((v) => v.serviceCharge === null)) break
        for (const piece of pieces(feature, versions, run.versions, from, to, period.start)) {
          const charge = chargeOf(piece, period, instalment, cutByEnd, run.series, feature.serviceChargeCarrier)
          if (charge === null) continue
          out.push(charge)
          // A credit (a negative price) is not discounted: a discount only ever takes off.
          const discount = feature.discounts.length && charge.amount > 0n ? discountOn(feature.discounts, period.start) : null
          if (discount) {
            const days = piece.version.serviceCharge === null ? daysCovered(period.start, period.end) : period.days
            const off = discountAmounts(discount, charge.rate, charge.quantity, charge.amount, daysCovered(piece.start, piece.end), days)
            if (off.amount !== 0n) out.push({ ...charge, discount: true, rate: off.rate, amount: off.amount, cost: ZERO })
          }
        }
      }
    }
  }
  return out
}

/** The earlier of two last days, null being none. */
const earliest = (a: DateOnly | null, b: DateOnly | null): DateOnly | null => (a === null ? b : b === null ? a : minDate(a, b))

/**
 * The charge of one part of a period: the version's price × the billed count, pro-rated by days;
 * or, for a feature in instalments while the version has no price, period k's instalment (a
 * whole period charges it whole, also a calendar feature's short first one; a part pro-rata).
 */
function chargeOf(piece: Piece, period: Period, instalment: Money | null, cutByEnd: boolean, series: number, carrier: Money | null): ExpectedCharge | null {
  const own = piece.version.serviceCharge
  const rate = own ?? instalment
  if (rate === null) return null
  const quantity = own === null ? 1 : piece.quantity
  const covered = daysCovered(piece.start, piece.end)
  // The cost is pro-rated over the same days as the charge, so it follows the charge row for row.
  const days = own === null ? daysCovered(period.start, period.end) : period.days
  // An instalment's part is its running total over the period less the total before it: parts
  // split between series then add up to what one part from the period's start charges (which is
  // what `instalmentStarts` counts as paid of a period a drop cut), never a penny short or over.
  const amount =
    own === null && piece.start > period.start
      ? sub(proRate(rate, daysCovered(period.start, piece.end), days), proRate(rate, daysBetween(period.start, piece.start), days))
      : proRate(times(rate, quantity), covered, days)
  const cost = carrier === null ? ZERO : proRate(times(carrier, quantity), covered, days)
  return {
    kind: 'recurring',
    series,
    slotStart: period.start,
    periodStart: piece.start,
    periodEnd: piece.end,
    transactionDate: period.start,
    quantity,
    rate,
    amount,
    cost,
    style: piece.version.mode === 'delta' && !cutByEnd ? 'delta' : 'replace',
  }
}

/**
 * `from`..`to` of the period starting `periodStart`, split where a version of the run takes effect,
 * equal neighbours merged. The committed count applies by the period's start, so it never splits one.
 */
function pieces(feature: BillingFeature, all: readonly ChargeVersion[], versions: readonly ChargeVersion[], from: DateOnly, to: DateOnly, periodStart: DateOnly): Piece[] {
  const out: Piece[] = []
  // Versions are sorted by a strictly increasing `from`: the bounds are `from` and each version's day inside (from, to].
  let i = 0
  while (i < versions.length && versions[i].from <= from) i++
  for (let start = from; ; i++) {
    const bound = i < versions.length && versions[i].from <= to ? versions[i].from : null
    const end = bound === null ? to : addDays(bound, -1)
    const version = versionAt(versions, start)!
    const quantity = billedCount(feature, version.featureCount, periodStart, committedAt(feature, all, periodStart))
    const prev = out[out.length - 1]
    // An instalment ignores the count (contract 17.6), so a change of count never splits one: two
    // parts, each rounded, would not add up to it.
    if (prev && prev.version.serviceCharge === version.serviceCharge && (prev.quantity === quantity || version.serviceCharge === null)) {
      prev.end = end
      prev.version = version
    } else {
      out.push({ start, end, version, quantity })
    }
    if (bound === null) return out
    start = bound
  }
}

/**
 * The committed count of a period starting on `date`: the one the version in force then records
 * (else, for a version recorded before counts were kept, the feature's own; under `Peak Count`
 * none), and under `Peak Count` at least the highest count in force by then, so raising the
 * count never re-prices earlier periods and the peak never bills below the committed count
 * (contract 17.6). Under `Peak Count` a version records the peak reached by its own date
 * (`keptPeaks`), never a later one.
 */
function committedAt(feature: BillingFeature, all: readonly ChargeVersion[], date: DateOnly): number | null {
  if (feature.committedPeak) return peakCommittedAt(all, date)
  const own = versionAt(all, date)?.committed
  return own !== undefined ? own : feature.featureCountCommitted
}
