import { maxDate, type DateOnly } from '../dates/date-only.js'
import type { ServiceChargeInterval } from '../presets/engine-lists.js'
import type { Money } from '../money/money.js'

export const chargeChangeModes = ['replace', 'add', 'delta'] as const
export type ChargeChangeMode = (typeof chargeChangeModes)[number]

/**
 * One version of a feature's recurring charge, in force from `from` until the next version.
 *
 * `series` numbers the runs of charges an `add` change starts: ledger rows of an older series for
 * periods that a newer series covers are left alone (the customer was credited outside the
 * platform), which is how `add` charges again without refunding. `mode` is the change that made
 * the version; for `delta` versions a difference against approved charges is settled with
 * adjustment rows instead of a refund and a new charge.
 */
export interface ChargeVersion {
  readonly from: DateOnly
  /** Unit price per period; null: no recurring charge while this version is in force. */
  readonly serviceCharge: Money | null
  readonly featureCount: number
  /**
   * The committed count in force from this version (contract 9.3, 17.5); undefined in versions
   * recorded before it was kept, which take the feature's own (see `committedAt`).
   */
  readonly committed?: number | null
  /**
   * The interval that lays out the periods from this version on (a PATCH of
   * `serviceChargeInterval`, contract 17.5); undefined: the feature's own.
   */
  readonly interval?: ServiceChargeInterval
  /**
   * Periods are laid out anew from this version's date: a change of interval took effect on it
   * (even one back to the interval before, which lays out periods of its own from here).
   */
  readonly newLayout?: true
  /**
   * Priced by the fixed fee tariff that applies (contract 9.6), whatever it charges on each day,
   * not by `serviceCharge` (which then records the price when the version was made).
   */
  readonly tariffPriced?: true
  /**
   * On the version an `add` made: the last day the series before it ran when it was made (the end
   * of the period holding the day before). Periods laid out again since never stretch that series
   * past it (see `seriesRuns`); undefined in versions recorded before it was kept.
   */
  readonly olderThrough?: DateOnly
  readonly series: number
  readonly mode: ChargeChangeMode
}

export type ChargeHistory = readonly ChargeVersion[]

/** The history of a feature that has never been changed: its charge from its start date. */
export function initialHistory(startDate: DateOnly, serviceCharge: Money | null, featureCount: number, committed?: number | null): ChargeVersion[] {
  return [committed === undefined ? { from: startDate, serviceCharge, featureCount, series: 0, mode: 'replace' } : { from: startDate, serviceCharge, featureCount, committed, series: 0, mode: 'replace' }]
}

/**
 * The history as it applies to a feature starting on `startDate`: sorted by `from` (for equal
 * dates the later entry wins), dates before the start moved to it, the first version from the
 * start (a date before the first version uses the first version).
 */
export function effectiveHistory(history: ChargeHistory, startDate: DateOnly): ChargeVersion[] {
  // A feature never changed has one version (nearly all of them, several times per billing).
  if (history.length === 1) return [history[0].from === startDate ? history[0] : { ...history[0], from: startDate }]
  const sorted = [...history].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const out: ChargeVersion[] = []
  for (const v of sorted) {
    const from = out.length === 0 ? startDate : maxDate(v.from, startDate)
    if (out.length > 0 && out[out.length - 1].from === from) out.pop()
    out.push({ ...v, from })
  }
  return out
}

/** The version in force on `date` in a sorted history: the last from on or before it, else the first. */
export function versionAt(sorted: readonly ChargeVersion[], date: DateOnly): ChargeVersion | null {
  let found: ChargeVersion | null = sorted[0] ?? null
  for (const v of sorted) {
    if (v.from > date) break
    found = v
  }
  return found
}

/** A change to record: new values in force from `from`. */
export interface ChargeChange {
  readonly from: DateOnly
  readonly serviceCharge: Money | null
  readonly featureCount: number
  /** The committed count from `from` on; undefined keeps each version's own. */
  readonly committed?: number | null
  /** The interval from `from` on; undefined keeps each version's own. */
  readonly interval?: ServiceChargeInterval
  /** From `from` on the price is the fixed fee tariff's (a PATCH leaving `serviceCharge` unset). */
  readonly tariffPriced?: boolean
  /** For `add`: how far the series before runs (see `ChargeVersion.olderThrough`). */
  readonly olderThrough?: DateOnly
  readonly mode: ChargeChangeMode
}

/**
 * The history after a change. `replace` and `delta` put the new values in force from `from` on,
 * superseding later versions but keeping their series (a later `add` stays in effect for what it
 * froze). `add` starts a new series from `from`, above every series in the history and in the
 * ledger (`ledgerMaxSeries`), and drops the versions after it. A change that gives no interval
 * supersedes no later change of interval, in any mode: those versions stay, with the change's
 * values, so the periods laid out from their dates (and the feature's stored interval, which a
 * PATCH set) stand. One that gives an interval sets it from `from` on, as it sets the price. The
 * committed count likewise: a change that gives none keeps each later change of it, as a version
 * with the change's values and its own committed count, so the feature's stored count is billed.
 */
export function applyChange(history: ChargeHistory, change: ChargeChange, ledgerMaxSeries: number): ChargeVersion[] {
  const sorted = [...history].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const before = sorted.filter((v) => v.from < change.from)
  const values = { serviceCharge: change.serviceCharge, featureCount: change.featureCount, mode: change.mode }
  // The committed count and the interval: the change's, else each version keeps its own.
  const committed = (v: ChargeVersion | null) => {
    const c = change.committed !== undefined ? change.committed : v?.committed
    const i = change.interval !== undefined ? change.interval : v?.interval
    return { ...(c === undefined ? {} : { committed: c }), ...(i === undefined ? {} : { interval: i }) }
  }
  const current = versionAt(sorted, change.from)
  // A change on the day a change of interval took effect keeps the periods laid out from that day:
  // dropping the mark laid them out again from the stretch before, cutting the periods already charged.
  const relaid = change.interval !== undefined || sorted.some((v) => v.from === change.from && v.newLayout)
  const priced = change.tariffPriced ? { tariffPriced: true as const } : {}
  const layout = { ...(relaid ? { newLayout: true as const } : {}), ...priced }
  if (change.mode === 'add') {
    const series = Math.max(ledgerMaxSeries, ...sorted.map((v) => v.series)) + 1
    const older = change.olderThrough === undefined ? {} : { olderThrough: change.olderThrough }
    const scheduled = new Set(relaidAfter(sorted, change))
    const kept = keptAfter(sorted, change, scheduled).map((v) => ({ from: v.from, series, ...values, ...committed(v), ...priced, ...(scheduled.has(v) ? { newLayout: true as const } : {}) }))
    return [...before, { from: change.from, series, ...values, ...committed(current), ...layout, ...older }, ...kept]
  }
  // The add that started a series keeps how far the one before it runs, whatever replaces its values.
  const older = (v: ChargeVersion | null) => (v?.olderThrough === undefined ? {} : { olderThrough: v.olderThrough })
  let series = current?.series ?? 0
  const same = current?.from === change.from ? current : null
  const out: ChargeVersion[] = [...before, { from: change.from, series, ...values, ...committed(current), ...layout, ...older(same) }]
  const scheduled = new Set(relaidAfter(sorted, change))
  const kept = new Set(keptAfter(sorted, change, scheduled))
  for (const v of sorted) {
    if (v.from <= change.from || (v.series === series && !kept.has(v))) continue
    series = v.series
    const mark = scheduled.has(v) ? { newLayout: true as const } : {}
    out.push({ from: v.from, series, ...values, ...committed(v), ...mark, ...priced, ...older(v) })
  }
  return out
}

/**
 * The versions after a change that lay out the periods anew (a change of interval took effect on
 * them), when the change gives no interval of its own: it sets the values, not the layout, and the
 * feature's stored interval is the one they scheduled.
 */
function relaidAfter(sorted: readonly ChargeVersion[], change: ChargeChange): ChargeVersion[] {
  if (change.interval !== undefined) return []
  return sorted.filter((v, i) => v.from > change.from && (v.newLayout === true || (i > 0 && v.interval !== undefined && v.interval !== sorted[i - 1].interval)))
}

/**
 * The versions after a change that it keeps (with its values): those that lay out the periods anew
 * (`relaidAfter`) and, when it gives no committed count, those where the committed count changes.
 * A raise `Peak Count` recorded (`keptPeaks`) cannot be told from a person's: both are kept, so the
 * count billed is never below the feature's stored one. A `Peak Count` change always gives a count.
 */
function keptAfter(sorted: readonly ChargeVersion[], change: ChargeChange, relaid: ReadonlySet<ChargeVersion>): ChargeVersion[] {
  const recommitted = (v: ChargeVersion, i: number) => change.committed === undefined && i > 0 && v.committed !== sorted[i - 1].committed
  return sorted.filter((v, i) => v.from > change.from && (relaid.has(v) || recommitted(v, i)))
}

/**
 * The history after an annual increase to `change.serviceCharge` from `change.from` (contract 11):
 * the version in force then is changed as `applyChange` would, and the later versions that carried
 * its price on (a change of count, committed count or interval only) take the new price too, up to
 * the first later version with a price of its own. That one and every version after it are kept as
 * they are: a price a person scheduled for a later date is the agreed price, never superseded.
 */
export function applyIncrease(history: ChargeHistory, change: ChargeChange, ledgerMaxSeries: number): ChargeVersion[] {
  const sorted = [...history].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
  const old = versionAt(sorted, change.from)
  const raised = applyChange(history, change, ledgerMaxSeries).filter((v) => v.from <= change.from)
  let carried = old !== null && !old.tariffPriced
  for (const v of sorted) {
    if (v.from <= change.from) continue
    carried &&= !v.tariffPriced && v.serviceCharge === old!.serviceCharge
    raised.push(carried ? { ...v, serviceCharge: change.serviceCharge } : v)
  }
  return raised
}
