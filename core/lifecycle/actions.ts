import { date, preset, type Field } from '../fields/field.js'
import type { Level } from './levels.js'

/** The status actions of contract 5 (changeRecurringCharge and the customer side-effect actions live elsewhere). */
export const lifecycleActions = [
  'drop',
  'reinstate',
  'suspend',
  'unsuspend',
  'makeNonBillable',
  'makeBillable',
  'finalBill',
] as const
export type LifecycleAction = (typeof lifecycleActions)[number]

/** The parameter carrying the date each action takes effect on. */
export const actionDateParam = {
  drop: 'dateDrop',
  reinstate: 'dateReinstate',
  suspend: 'dateSuspend',
  unsuspend: 'dateUnsuspend',
  makeNonBillable: 'dateMakeNonBillable',
  makeBillable: 'dateMakeBillable',
  finalBill: 'dateFinalBill',
} as const satisfies Record<LifecycleAction, string>

const status = preset('status', 'statuses', { required: true, description: 'a configured status name (the action, not the name, decides the state change)' })
const statusReason = preset('statusReason', 'statusReasons', { description: 'reason for the new status' })
const notice = date('cancellationNoticeGivenDate', { description: 'when cancellation notice was given' })
/** The date an action takes effect: required for drop, reinstate and finalBill, else today by default. */
const on = {
  drop: date('dateDrop', { required: true, description: 'date of the drop' }),
  reinstate: date('dateReinstate', { required: true, description: 'date of the reinstatement' }),
  suspend: date('dateSuspend', { description: 'date of the suspension (default today)' }),
  unsuspend: date('dateUnsuspend', { description: 'date the suspension ends (default today)' }),
  makeNonBillable: date('dateMakeNonBillable', { description: 'date billing stops (default today)' }),
  makeBillable: date('dateMakeBillable', { description: 'date billing resumes (default today)' }),
  finalBill: date('dateFinalBill', { required: true, description: 'date the customer is billed until' }),
} as const
const ignoreTraffic = preset('ignoreTrafficNumberType', 'ignoreTrafficTypes', { description: "which of the numbers' traffic to ignore from now on" })

/** The lifecycle actions of numbers and services, with their parameters (required ones first, billing-api.md's order). */
const childActions = {
  drop: [status, on.drop, notice, statusReason],
  reinstate: [status, on.reinstate, statusReason],
  suspend: [status, on.suspend, statusReason],
  unsuspend: [status, on.unsuspend, statusReason],
  makeNonBillable: [status, on.makeNonBillable, statusReason],
  makeBillable: [status, on.makeBillable, statusReason],
} as const

/**
 * Every lifecycle action of every level with its parameters, described once: the body check,
 * the body's TypeScript type and the OpenAPI document all derive from this table.
 */
export const lifecycleParams = {
  customers: {
    ...childActions,
    drop: [status, on.drop, notice, ignoreTraffic, statusReason],
    reinstate: [status, on.reinstate, date('dateReinstateNumbersFeatures', { description: 'also reinstate items dropped on their own on this date' }), statusReason],
    finalBill: [status, on.finalBill, notice, statusReason],
  },
  numbers: { ...childActions, drop: [status, on.drop, notice, ignoreTraffic, statusReason] },
  services: childActions,
  features: { ...childActions, drop: [status, on.drop, notice, date('dateBillTo', { description: 'bill-to date, overriding the calculated one' }), statusReason] },
} as const

/** The lifecycle actions an item of this level offers. */
export function actionsOf(level: Level): readonly LifecycleAction[] {
  return level === 'customers' ? lifecycleActions : lifecycleActions.filter((a) => a !== 'finalBill')
}

export function isLifecycleAction(level: Level, name: string): name is LifecycleAction {
  return (actionsOf(level) as readonly string[]).includes(name)
}

/** The body parameters of an action at a level, required ones first, in billing-api.md's order. */
export function paramSpecs(level: Level, action: LifecycleAction): readonly Field[] {
  const params: Partial<Record<LifecycleAction, readonly Field[]>> = lifecycleParams[level]
  const found = params[action]
  if (!found) throw new RangeError(`${level} have no action ${action}`)
  return found
}
