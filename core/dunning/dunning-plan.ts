import { daysBetween, type DateOnly } from '../dates/date-only.js'
import type { DunningAction, DunningProfile } from '../presets/collections.js'
import type { REGULATOR_PROTECTION } from '../presets/regulator-protection.js'

/** A step taken for an invoice, as its `dunningSteps` records it (contract 15.2). */
export interface TakenStep {
  /** The step's place in its profile, from 1. */
  readonly step: number
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

/**
 * The steps of a profile due for an invoice on `today` and not taken yet, in order: those whose
 * `afterDays` have passed since its overdue date. A step is taken once, whenever the job first
 * finds it due (a job that did not run for a week takes the week's steps together, in order).
 */
export function dueSteps(profile: DunningProfile, overdueDate: DateOnly, today: DateOnly, taken: readonly TakenStep[]): TakenStep[] {
  const days = daysBetween(overdueDate, today)
  const done = new Set(taken.map((s) => s.step))
  return profile.steps.flatMap((s, i) => (s.afterDays <= days && !done.has(i + 1) ? [{ step: i + 1, action: s.action, date: today }] : []))
}
