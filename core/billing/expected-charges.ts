import { addDays, maxDate, minDate, type DateOnly } from '../dates/date-only.js'
import { round, times, type Money } from '../money/money.js'
import { billedCount, featureEnd, type BillingFeature } from './billing-feature.js'
import { effectiveHistory, versionAt, type ChargeHistory, type ChargeVersion } from './charge-history.js'
import type { ChargeKind } from './ledger-row.js'
import { daysCovered, layoutOf, periodContaining, type Schedule } from './periods.js'
import { proRate } from './pro-rate.js'

/** How a slot whose approved charges no longer match is corrected (see `reconcile`). */
export type SlotStyle = 'replace' | 'delta'

/** A charge that should exist in the ledger. */
export interface ExpectedCharge {
  readonly kind: ChargeKind
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
  readonly style: SlotStyle
}

export const scheduleOf = (f: BillingFeature & { startDate: DateOnly }): Schedule => ({ interval: f.interval, anchor: f.startDate })

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
  return [{ kind: 'connection', series: 0, slotStart: start, periodStart: start, periodEnd: start, transactionDate: start, quantity, rate, amount, style: 'replace' }]
}

interface Piece {
  start: DateOnly
  end: DateOnly
  version: ChargeVersion
  quantity: number
}

/**
 * Recurring charges of every period starting on or before `horizon`, through the feature's end
 * (end date or bill-to date, the last period pro-rated). A period is split where a version takes
 * effect inside it, each part pro-rated over the whole period's days; adjacent parts with the same
 * price and count are kept whole. A series (see `ChargeVersion`) runs until the next series starts,
 * through the end of the period that day falls in: an `add` never shortens what was charged before.
 */
export function expectedRecurring(feature: BillingFeature, history: ChargeHistory, horizon: DateOnly | null): ExpectedCharge[] {
  const start = feature.startDate
  if (!start || !horizon || history.length === 0) return []
  const schedule: Schedule = { interval: feature.interval, anchor: start }
  const end = featureEnd(feature)
  const versions = effectiveHistory(history, start)
  const out: ExpectedCharge[] = []
  for (const run of seriesRuns(versions, schedule)) {
    const last = run.to && end ? minDate(run.to, end) : (run.to ?? end)
    const periods = layoutOf(schedule)
    for (let k = periods.indexOf(maxDate(run.from, start)); ; k++) {
      const period = periods.at(k)
      if (period.start > horizon || (last !== null && period.start > last)) break
      const from = maxDate(period.start, run.from)
      const to = last !== null ? minDate(period.end, last) : period.end
      if (from > to) break
      // a period cut short by the feature's end is settled by refund (contract 5.5), even after a delta change
      const cutByEnd = end !== null && end < period.end
      for (const piece of pieces(feature, run.versions, from, to, period.start)) {
        const rate = piece.version.serviceCharge
        if (rate === null) continue
        out.push({
          kind: 'recurring',
          series: run.series,
          slotStart: period.start,
          periodStart: piece.start,
          periodEnd: piece.end,
          transactionDate: period.start,
          quantity: piece.quantity,
          rate,
          amount: proRate(times(rate, piece.quantity), daysCovered(piece.start, piece.end), period.days),
          style: piece.version.mode === 'delta' && !cutByEnd ? 'delta' : 'replace',
        })
      }
    }
  }
  return out
}

interface SeriesRun {
  series: number
  from: DateOnly
  /** Last day of the series, or null while it is the latest. */
  to: DateOnly | null
  versions: ChargeVersion[]
}

function seriesRuns(versions: readonly ChargeVersion[], schedule: Schedule): SeriesRun[] {
  const runs: SeriesRun[] = []
  for (const v of versions) {
    const run = runs[runs.length - 1]
    if (run && run.series === v.series) run.versions.push(v)
    else runs.push({ series: v.series, from: v.from, to: null, versions: [v] })
  }
  for (let i = 0; i + 1 < runs.length; i++) {
    runs[i].to = periodContaining(schedule, addDays(runs[i + 1].from, -1))?.end ?? addDays(runs[i + 1].from, -1)
  }
  return runs
}

/**
 * `from`..`to` of the period starting `periodStart`, split where a version of the run takes effect,
 * equal neighbours merged. The committed count applies by the period's start, so it never splits one.
 */
function pieces(feature: BillingFeature, versions: readonly ChargeVersion[], from: DateOnly, to: DateOnly, periodStart: DateOnly): Piece[] {
  const out: Piece[] = []
  // Versions are sorted by a strictly increasing `from`: the bounds are `from` and each version's day inside (from, to].
  let i = 0
  while (i < versions.length && versions[i].from <= from) i++
  for (let start = from; ; i++) {
    const bound = i < versions.length && versions[i].from <= to ? versions[i].from : null
    const end = bound === null ? to : addDays(bound, -1)
    const version = versionAt(versions, start)!
    const quantity = billedCount(feature, version.featureCount, periodStart)
    const prev = out[out.length - 1]
    if (prev && prev.version.serviceCharge === version.serviceCharge && prev.quantity === quantity) {
      prev.end = end
      prev.version = version
    } else {
      out.push({ start, end, version, quantity })
    }
    if (bound === null) return out
    start = bound
  }
}
