import type { DateOnly } from '../dates/date-only.js'
import { versionAt, type ChargeVersion } from './charge-history.js'

/**
 * `Peak Count`'s committed count on `date` (contract 11, 17.6): the one the version in force then
 * records, at least the highest count in force by then. `versions` sorted by `from`.
 */
export function peakCommittedAt(versions: readonly ChargeVersion[], date: DateOnly): number {
  const own = versionAt(versions, date)?.committed ?? null
  const peak = peakCount(versions, date)
  return own === null || own < peak ? peak : own
}

/** The highest count of the versions in force on or before `date` (sorted history), at least the first's. */
export function peakCount(versions: readonly ChargeVersion[], date: DateOnly): number {
  let peak = versions[0]?.featureCount ?? 0
  for (const v of versions) {
    if (v.from > date) break
    if (v.featureCount > peak) peak = v.featureCount
  }
  return peak
}

/**
 * The history `after` a change from `from` to a `Peak Count` feature, `before` the one it
 * superseded (both sorted). A count the feature had is had from its own date (contract 11): a
 * version after `from` that the change replaced still raises the committed count from its date,
 * never before, so a correction of the count from an earlier date neither bills the later peak
 * from that date nor forgets it. Each version from `from` on records at least the peak in force
 * on its date; a raise on a day no version starts is recorded on a copy of the version in force
 * then (same price and count: it splits no period, as the committed count applies by a period's
 * start). Runs once per change, never in a billing run, which reads the stamps as they are.
 */
export function keptPeaks(before: readonly ChargeVersion[], after: readonly ChargeVersion[], from: DateOnly): ChargeVersion[] {
  const raises = before.filter((v) => v.from > from)
  const out: ChargeVersion[] = []
  let peak = -1
  let j = 0
  const raiseTo = (date: DateOnly | null) => {
    for (; j < raises.length && (date === null || raises[j].from < date); j++) {
      const r = raises[j]
      const level = Math.max(r.committed ?? 0, r.featureCount)
      if (level <= peak) continue
      const { newLayout: _layout, olderThrough: _older, ...held } = out[out.length - 1]
      out.push({ ...held, from: r.from, committed: level })
      peak = level
    }
  }
  for (const v of after) {
    if (v.from < from) {
      out.push(v)
      continue
    }
    raiseTo(v.from)
    let level = Math.max(peak, v.committed ?? 0)
    for (; j < raises.length && raises[j].from === v.from; j++) level = Math.max(level, raises[j].committed ?? 0, raises[j].featureCount)
    out.push(level > (v.committed ?? 0) ? { ...v, committed: level } : v)
    peak = level
  }
  raiseTo(null)
  return out
}
