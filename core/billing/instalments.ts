import { mulRatioRound, sub, times, type Money } from '../money/money.js'
import type { LayoutRun } from './layout-runs.js'
import { daysCovered, layoutOf } from './periods.js'
import { proRate } from './pro-rate.js'

/**
 * A feature sold for a total paid in instalments (contract 11): with `totalFeatureValue` and no
 * `serviceCharge`, period k (from 0) charges `total / count` rounded half up to whole pence, the
 * last one the remainder, and periods from `count` on charge nothing. The instalments add up to
 * the total exactly (an `add` charges again those from its date, the older ones being credited
 * outside the platform).
 */
export interface Instalments {
  readonly count: number
  readonly total: Money
}

/**
 * The instalment of period `k`, or null past the last one. Where rounding up would take more
 * than the total before the last period (pennies in many instalments), an instalment takes only
 * what is left, so none is ever negative.
 */
export function instalmentAt(plan: Instalments, k: number): Money | null {
  if (k < 0 || k >= plan.count) return null
  const each = mulRatioRound(plan.total, 1, plan.count, 2)
  const before = times(each, k)
  const left = before > plan.total ? (0n as Money) : sub(plan.total, before)
  return k < plan.count - 1 && each < left ? each : left
}

/**
 * The plan of a feature's fields, or null when it is not sold in instalments. Only the periods
 * of charge versions without a price of their own take it (see `chargeOf`): a `serviceCharge` set
 * later ends the plan from the day it takes effect, and the instalments charged before stay. The
 * feature's current `serviceCharge` is only its latest version's, so it must not decide the plan:
 * that refunded every instalment already charged.
 */
export function instalmentsOf(f: { readonly instalments: number | null; readonly totalFeatureValue: Money | null }): Instalments | null {
  const count = f.instalments
  if (f.totalFeatureValue === null || count === null || !Number.isInteger(count) || count < 1) return null
  return { count, total: f.totalFeatureValue }
}

/**
 * Where a stretch of a feature's periods (`LayoutRun`) takes up its instalments: its first period
 * charges `owed` (what the end of the stretch before, at a drop or a change of interval, left
 * unpaid of instalment `index`), or instalment `index` whole when null, and each later period the
 * next instalment.
 */
export interface InstalmentStart {
  readonly index: number
  readonly owed: Money | null
}

/** A feature's first stretch. */
export const FROM_THE_FIRST: InstalmentStart = { index: 0, owed: null }

/**
 * Each stretch's start. The plan is a debt for what was bought: whatever ends a stretch, the
 * next goes on where it stopped, so neither a reinstate after a drop's gap nor a change of
 * interval charges an instalment twice or forgives any. The stretch's last period is cut on its
 * last charged day (the day before the gap, or before the change of interval) and pro-rated
 * (contract 5.5, 17.5); what the cut left unpaid of that period's instalment is what the next
 * stretch's first period charges, whatever its length, then the rest follow one a period.
 */
export function instalmentStarts(plan: Instalments, layouts: readonly LayoutRun[]): InstalmentStart[] {
  const out = [FROM_THE_FIRST]
  for (let i = 1; i < layouts.length; i++) {
    const prev = layouts[i - 1]
    const at = out[i - 1]
    // A stretch another follows always has a last day (`to`); a gap inside it ends its charges sooner.
    const last = prev.chargedTo ?? prev.to
    if (last === null || last < prev.from) out.push(at) // wholly in the gap: nothing charged
    else {
      const periods = layoutOf(prev.schedule)
      const j = periods.indexOf(last)
      const cut = periods.at(j)
      const due = instalmentIn(plan, at, j)
      const index = at.index + j
      if (due === null || last === cut.end) {
        out.push({ index: index + 1, owed: null })
        continue
      }
      // As `expectedRecurring` charges the cut period: its days of the period's own days.
      const paid = proRate(due, daysCovered(cut.start, last), daysCovered(cut.start, cut.end))
      out.push(paid === due ? { index: index + 1, owed: null } : { index, owed: sub(due, paid) })
    }
  }
  return out
}

/** What period `k` (from 0) of a stretch starting at `start` charges, or null past the plan. */
export function instalmentIn(plan: Instalments, start: InstalmentStart, k: number): Money | null {
  return k === 0 && start.owed !== null ? start.owed : instalmentAt(plan, start.index + k)
}
