import { addDays, minDate, type DateOnly } from '../dates/date-only.js'
import type { DropGap } from '../lifecycle/drop-gaps.js'
import type { ChargeVersion } from './charge-history.js'
import type { ServiceChargeInterval } from './periods.js'
import type { Schedule } from './periods.js'

/**
 * A stretch of a feature's history whose periods one interval lays out (contract 17.5): from the
 * start date, or from the day a change of `serviceChargeInterval` took effect (the new periods
 * are anchored there), or from the day a reinstate started the charges again after a gap, through
 * the day before the next stretch (null: on). The last period of a stretch that another follows
 * is cut short on that day, pro-rated like any part of a period.
 */
export interface LayoutRun {
  readonly from: DateOnly
  readonly to: DateOnly | null
  /**
   * The last day charged when a drop's gap (`DropGap`) begins inside the stretch: nothing after it
   * is charged (before `from`: nothing at all). Null for most stretches.
   */
  readonly chargedTo: DateOnly | null
  readonly schedule: Schedule
}

type Run = { -readonly [K in keyof LayoutRun]: LayoutRun[K] }

/**
 * The stretches of a feature's effective history (sorted, the first from the start date). A
 * version without an interval of its own (nearly all of them) has the feature's; a new stretch
 * starts where the interval changes, or where a change of interval took effect (`newLayout`).
 * Each gap ends a stretch: its periods are charged up to the gap, and a new stretch anchored on
 * the day after the gap lays out the periods from there, as a feature starting that day would.
 */
export function layoutRuns(interval: ServiceChargeInterval, start: DateOnly, versions: readonly ChargeVersion[], gaps: readonly DropGap[] = []): LayoutRun[] {
  const runs: Run[] = [{ from: start, to: null, chargedTo: null, schedule: { interval: versions[0]?.interval ?? interval, anchor: start } }]
  for (const v of versions) {
    const own = v.interval ?? interval
    const last = runs[runs.length - 1]
    if (v.from <= last.from || (own === last.schedule.interval && !v.newLayout)) continue
    last.to = addDays(v.from, -1)
    runs.push({ from: v.from, to: null, chargedTo: null, schedule: { interval: own, anchor: v.from } })
  }
  // Most features were never reinstated after a gap: their stretches are the versions' alone.
  for (const gap of gaps) withGap(runs, start, gap)
  return runs
}

function withGap(runs: Run[], start: DateOnly, gap: DropGap): void {
  const resume = addDays(gap.to, 1)
  if (resume <= start) return // nothing was due before the start
  const i = runs.findLastIndex((r) => r.from <= resume)
  const held = runs[i]
  if (held.from < resume) {
    runs.splice(i + 1, 0, { from: resume, to: held.to, chargedTo: held.chargedTo, schedule: { interval: held.schedule.interval, anchor: resume } })
    held.to = addDays(resume, -1)
  }
  // Every stretch the gap reaches ends there; one wholly inside it charges nothing.
  const before = addDays(gap.from, -1)
  for (const r of runs) {
    if (r.from > gap.to || (r.to !== null && r.to < gap.from)) continue
    r.chargedTo = r.chargedTo === null ? before : minDate(r.chargedTo, before)
  }
}

/** The stretch holding `date` (the first for a date before the start). */
export function layoutAt(runs: readonly LayoutRun[], date: DateOnly): LayoutRun {
  for (let i = runs.length - 1; i > 0; i--) if (runs[i].from <= date) return runs[i]
  return runs[0]
}
