import { daysBetween, type DateOnly } from '../dates/date-only.js'
import type { DunningAction, DunningProfile, DunningStep } from '../presets/collections.js'
import type { REGULATOR_PROTECTION } from '../presets/regulator-protection.js'

/** A step taken for an invoice, as its `dunningSteps` records it (contract 15.2). */
export interface TakenStep {
  /** The step's place in its profile, from 1, when it was taken. */
  readonly step: number
  /**
   * The step's `afterDays`: with `action`, what it is, whatever its place (a profile changed or
   * edited since keeps its steps done). Missing from steps recorded before it was kept.
   */
  readonly afterDays?: number
  readonly action: DunningAction
  readonly date: DateOnly
  /**
   * Set when the step's action was not performed, and why: `regulatorProtection`, a `suspend` or
   * `bar` of a customer requiring protection, left to a person. Still taken: it is not retried.
   */
  readonly withheld?: typeof REGULATOR_PROTECTION
}

/** The steps an invoice's `dunningSteps` holds (anything else in the column is not a step). */
export function takenSteps(value: unknown): TakenStep[] {
  if (!Array.isArray(value)) return []
  return value.filter((s): s is TakenStep => typeof s === 'object' && s !== null && typeof (s as TakenStep).step === 'number')
}

/** What a step is: its action on its day. Two entries of a profile alike are one step, taken once. */
const keyOf = (s: Pick<DunningStep, 'afterDays' | 'action'>): string => `${s.afterDays} ${s.action}`

/**
 * The steps of `profile` an invoice has taken, by what they are: a recorded step is its
 * `afterDays` and `action`. One recorded before `afterDays` was kept counts as the profile's
 * first step of its action not otherwise taken (as the steps of an unchanged profile are taken in
 * order, that is the one it was).
 */
function doneKeys(profile: DunningProfile, taken: readonly TakenStep[]): Set<string> {
  const done = new Set(taken.filter((s) => typeof s.afterDays === 'number').map((s) => keyOf(s as DunningStep)))
  for (const old of taken.filter((s) => typeof s.afterDays !== 'number')) {
    const match = profile.steps.find((s) => s.action === old.action && !done.has(keyOf(s)))
    if (match) done.add(keyOf(match))
  }
  return done
}

/**
 * The steps of a profile due for an invoice on `today` and not taken yet, in order: those whose
 * `afterDays` have passed since its overdue date. A step is taken once, whenever the job first
 * finds it due (a job that did not run for a week takes the week's steps together, in order); a
 * step is its `afterDays` and `action`, not its place, so a profile changed or edited since (a
 * step inserted before those taken) takes only what it has that was not taken.
 */
export function dueSteps(profile: DunningProfile, overdueDate: DateOnly, today: DateOnly, taken: readonly TakenStep[]): TakenStep[] {
  const days = daysBetween(overdueDate, today)
  const done = doneKeys(profile, taken)
  return profile.steps.flatMap((s, i) => {
    if (s.afterDays > days || done.has(keyOf(s))) return []
    done.add(keyOf(s))
    return [{ step: i + 1, afterDays: s.afterDays, action: s.action, date: today }]
  })
}
