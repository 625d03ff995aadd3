import { addDays, type DateOnly } from '../dates/date-only.js'
import type { ChargeVersion } from './charge-history.js'
import type { ServiceChargeInterval } from './periods.js'
import type { Schedule } from './periods.js'

/**
 * A stretch of a feature's history whose periods one interval lays out (contract 17.5): from the
 * start date, or from the day a change of `serviceChargeInterval` took effect (the new periods
 * are anchored there), through the day before the next change (null: on). The last period of a
 * stretch that another follows is cut short on that day, pro-rated like any part of a period.
 */
export interface LayoutRun {
  readonly from: DateOnly
  readonly to: DateOnly | null
  readonly schedule: Schedule
}

/**
 * The stretches of a feature's effective history (sorted, the first from the start date). A
 * version without an interval of its own (nearly all of them) has the feature's; a new stretch
 * starts where the interval changes, or where a change of interval took effect (`newLayout`).
 */
export function layoutRuns(interval: ServiceChargeInterval, start: DateOnly, versions: readonly ChargeVersion[]): LayoutRun[] {
  const runs: { from: DateOnly; to: DateOnly | null; schedule: Schedule }[] = [{ from: start, to: null, schedule: { interval: versions[0]?.interval ?? interval, anchor: start } }]
  for (const v of versions) {
    const own = v.interval ?? interval
    const last = runs[runs.length - 1]
    if (v.from <= last.from || (own === last.schedule.interval && !v.newLayout)) continue
    last.to = addDays(v.from, -1)
    runs.push({ from: v.from, to: null, schedule: { interval: own, anchor: v.from } })
  }
  return runs
}

/** The stretch holding `date` (the first for a date before the start). */
export function layoutAt(runs: readonly LayoutRun[], date: DateOnly): LayoutRun {
  for (let i = runs.length - 1; i > 0; i--) if (runs[i].from <= date) return runs[i]
  return runs[0]
}
