import { parseDate, type DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import { BillingError } from '../errors.js'
import type { Clock } from '../ports/clock.js'
import type { Presets } from '../presets/presets.js'
import { actionDateParam, actionsOf, isLifecycleAction, paramSpecs, type LifecycleAction, type ParamSpec } from './actions.js'
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

const SHOWN = 8

function oneOf(name: string, allowed: readonly string[]): string {
  const some = allowed.slice(0, SHOWN).map((s) => `"${s}"`).join(', ')
  return `Give ${name} as one of the configured names: ${some}${allowed.length > SHOWN ? ', ...' : ''}.`
}

const invalid = (name: string, why: string, hint: string) =>
  new BillingError('invalid_parameter', `Invalid action parameter ${name}: ${why}`, hint)

/**
 * Checks an action's body in the order of contract 2: the action name (`unknown_action`), then
 * missing required parameters (`missing_parameter`, naming them), then values and unknown
 * parameters (`invalid_parameter`, naming the parameter). A required parameter given as null
 * counts as missing; an optional one given as null counts as absent. The item's state is not
 * looked at here (see `assertAllowed`).
 */
export function parseActionParams(
  level: Level,
  action: string,
  body: unknown,
  presets: Presets,
  clock: Clock,
): ParsedAction {
  if (!isLifecycleAction(level, action)) {
    throw new BillingError(
      'unknown_action',
      `Action ${action} is not recognised on ${level}`,
      `Use one of: ${actionsOf(level).join(', ')}.`,
    )
  }
  if (body === undefined || body === null) body = {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new BillingError('invalid_body', 'The action body must be a JSON object', 'Send a JSON object, {} when empty.')
  }
  const input = body as Readonly<Record<string, unknown>>
  const specs = paramSpecs(level, action)
  const given = (name: string) => Object.hasOwn(input, name) && input[name] !== undefined && input[name] !== null

  const missing = specs.filter((s) => s.required && !given(s.name)).map((s) => s.name)
  if (missing.length > 0) {
    const list = missing.join(', ')
    throw new BillingError(
      'missing_parameter',
      `Missing required action parameter${missing.length > 1 ? 's' : ''} ${list}`,
      `Add ${list} to the body of ${action}.`,
    )
  }

  const known = new Set(specs.map((s) => s.name))
  for (const name of Object.keys(input)) {
    if (!known.has(name)) {
      throw invalid(name, `${action} on ${level} takes no such parameter`, `Remove ${name}; ${action} takes ${[...known].join(', ')}.`)
    }
  }

  const values = new Map<string, string | DateOnly>()
  for (const spec of specs) {
    if (given(spec.name)) values.set(spec.name, checkValue(spec, input[spec.name], presets))
  }
  const date = (name: string) => (values.get(name) as DateOnly | undefined) ?? null

  return {
    level,
    action,
    date: date(actionDateParam[action]) ?? clock.today(),
    status: values.get('status') as string,
    statusReason: (values.get('statusReason') as string | undefined) ?? null,
    cancellationNoticeGivenDate: date('cancellationNoticeGivenDate'),
    ignoreTrafficNumberType: (values.get('ignoreTrafficNumberType') as string | undefined) ?? null,
    dateBillTo: date('dateBillTo'),
    dateReinstateNumbersFeatures: date('dateReinstateNumbersFeatures'),
    stamp: clock.now(),
  }
}

const lists: Record<Exclude<ParamSpec['kind'], 'date'>, string> = {
  status: 'statuses',
  statusReason: 'statusReasons',
  ignoreTrafficType: 'ignoreTrafficTypes',
}

function checkValue(spec: ParamSpec, value: unknown, presets: Presets): string | DateOnly {
  if (spec.kind === 'date') {
    const d = parseDate(value)
    if (d === null) {
      throw invalid(spec.name, `${JSON.stringify(value)} is not a date`, `Give ${spec.name} as a real date, YYYY-MM-DD.`)
    }
    return d
  }
  const allowed = presets.lists[lists[spec.kind]] ?? []
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw invalid(spec.name, `${JSON.stringify(value)} is not a configured name`, oneOf(spec.name, allowed))
  }
  return value
}
