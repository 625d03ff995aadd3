import { addDays, minDate, type DateOnly } from '../dates/date-only.js'
import { versionAt, type ChargeVersion } from './charge-history.js'
import { layoutAt, type LayoutRun } from './layout-runs.js'
import { periodContaining } from './periods.js'

/** The days one series of charges runs (see `ChargeVersion.series`). */
export interface SeriesRun {
  readonly series: number
  readonly from: DateOnly
  /** Last day of the series, or null while it is the latest. */
  readonly to: DateOnly | null
  readonly versions: ChargeVersion[]
}

/**
 * The last day a series runs when the next one starts on `next`: through the end of the period
 * holding the day before (an `add` never shortens what was charged before), and no further than
 * its stretch (a change of interval or a gap ends the period there, so a series never runs into
 * the next stretch's periods).
 */
export function olderSeriesEnd(layouts: readonly LayoutRun[], next: DateOnly): DateOnly {
  const dayBefore = addDays(next, -1)
  const layout = layoutAt(layouts, dayBefore)
  const end = periodContaining(layout.schedule, dayBefore)?.end ?? dayBefore
  return layout.to !== null && layout.to < end ? layout.to : end
}

/**
 * The runs of series in a sorted effective history. Where the `add` that started the next series
 * recorded how far the one before ran then (`olderThrough`), the older series stops there at the
 * latest: periods laid out again since (a change of interval dated before the add, a reinstate's
 * gap) must not stretch it over days the newer series charges again.
 */
export function seriesRuns(versions: readonly ChargeVersion[], layouts: readonly LayoutRun[]): SeriesRun[] {
  const runs: { -readonly [K in keyof SeriesRun]: SeriesRun[K] }[] = []
  for (const v of versions) {
    const run = runs[runs.length - 1]
    if (run && run.series === v.series) run.versions.push(v)
    else runs.push({ series: v.series, from: v.from, to: null, versions: [v] })
  }
  for (let i = 0; i + 1 < runs.length; i++) {
    const next = runs[i + 1].versions[0]
    const end = olderSeriesEnd(layouts, next.from)
    runs[i].to = next.olderThrough === undefined ? end : minDate(end, next.olderThrough)
  }
  return runs
}

/**
 * Which ledger rows a later `add` froze (reconcile leaves them: the customer was credited for them
 * outside the platform, contract 9.4): rows of an older series in a period a newer series starts
 * in (`slotStart`), or starting after their own series stopped, on a day a newer series charges.
 */
export function frozenRows(versions: readonly ChargeVersion[], layouts: readonly LayoutRun[]): (row: { series: number; periodStart: DateOnly }, slotStart: DateOnly) => boolean {
  const seriesAt = (date: DateOnly) => versionAt(versions, date)?.series ?? 0
  // Most histories hold one series: only the period's series can freeze a row then.
  if (versions.every((v) => v.series === versions[0].series)) return (row, slotStart) => row.series < seriesAt(slotStart)
  const ends = new Map(seriesRuns(versions, layouts).map((r) => [r.series, r.to]))
  return (row, slotStart) => {
    if (row.series < seriesAt(slotStart)) return true
    if (row.series >= seriesAt(row.periodStart)) return false
    const end = ends.get(row.series)
    return end === undefined || (end !== null && row.periodStart > end)
  }
}
