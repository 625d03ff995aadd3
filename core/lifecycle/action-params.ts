import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import { BillingError } from '../errors.js'
import type { FieldValue } from '../fields/item.js'
import { readParams } from '../input/action-params.js'
import { validatorFor } from '../input/validate.js'
import type { Clock } from '../ports/clock.js'
import type { Presets } from '../presets/presets.js'
import { actionDateParam, actionsOf, isLifecycleAction, paramSpecs, type LifecycleAction } from './actions.js'
import type { Level } from './levels.js'

/** A lifecycle action with its body checked: everything the pure functions downstream need. */
export interface ParsedAction {
  readonly level: Level
  readonly action: LifecycleAction
  /** The date the action takes effect: dateDrop, dateReinstate, dateFinalBill, or dateSuspend etc. (default today). */
  readonly date: DateOnly
  readonly status: string
  /** Null when not given: the new status carries no reason. */
  readonly statusReason: string | null
  /** drop and finalBill. */
  readonly cancellationNoticeGivenDate: DateOnly | null
  /** drop on customers and numbers: a name of `presets.lists.ignoreTrafficTypes`. */
  readonly ignoreTrafficNumberType: string | null
  /** drop on features: overrides the calculated bill-to date. */
  readonly dateBillTo: DateOnly | null
  /** reinstate on customers. */
  readonly dateReinstateNumbersFeatures: DateOnly | null
  /** `clock.now()` when parsed: the system stamp of every change the action makes, cascade included. */
  readonly stamp: Stamp
}

/** Parameter values as `readParams` gives them for any lifecycle action (absent ones null). */
export type LifecycleParams = Readonly<Record<string, FieldValue | undefined>>

/**
 * Checks an action's body in the order of contract 2: the action name (`unknown_action`), then
 * the parameters of `lifecycleParams` (`readParams`: missing ones, then values and unknown
 * names). The item's state is not looked at here (see `assertAllowed`).
 */
export function parseActionParams(level: Level, action: string, body: unknown, presets: Presets, clock: Clock): ParsedAction {
  if (!isLifecycleAction(level, action)) {
    throw new BillingError('unknown_action', `Action ${action} is not recognised on ${level}`, `Use one of: ${actionsOf(level).join(', ')}.`)
  }
  return toParsedAction(level, action, readParams(action, paramSpecs(level, action), body, validatorFor(presets)), clock)
}

/** A lifecycle action from its checked parameters. */
export function toParsedAction(level: Level, action: LifecycleAction, params: LifecycleParams, clock: Clock): ParsedAction {
  // readParams checked each value against its parameter: dates are dates, names are configured.
  const date = (name: string) => (params[name] ?? null) as DateOnly | null
  const text = (name: string) => (params[name] ?? null) as string | null
  return {
    level,
    action,
    date: date(actionDateParam[action]) ?? clock.today(),
    status: text('status') ?? '',
    statusReason: text('statusReason'),
    cancellationNoticeGivenDate: date('cancellationNoticeGivenDate'),
    ignoreTrafficNumberType: text('ignoreTrafficNumberType'),
    dateBillTo: date('dateBillTo'),
    dateReinstateNumbersFeatures: date('dateReinstateNumbersFeatures'),
    stamp: clock.now(),
  }
}
