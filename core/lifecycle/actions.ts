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

/** How a parameter's value is checked. */
export type ParamKind = 'status' | 'statusReason' | 'date' | 'ignoreTrafficType'

export interface ParamSpec {
  readonly name: string
  readonly kind: ParamKind
  readonly required: boolean
}

/** The parameter carrying the date each action takes effect on. */
export const actionDateParam: Readonly<Record<LifecycleAction, string>> = {
  drop: 'dateDrop',
  reinstate: 'dateReinstate',
  suspend: 'dateSuspend',
  unsuspend: 'dateUnsuspend',
  makeNonBillable: 'dateMakeNonBillable',
  makeBillable: 'dateMakeBillable',
  finalBill: 'dateFinalBill',
}

/** Actions whose date must be given; the others default to today. */
const dateRequired: ReadonlySet<LifecycleAction> = new Set(['drop', 'reinstate', 'finalBill'])

/** The lifecycle actions an item of this level offers. */
export function actionsOf(level: Level): readonly LifecycleAction[] {
  return level === 'customers' ? lifecycleActions : lifecycleActions.filter((a) => a !== 'finalBill')
}

export function isLifecycleAction(level: Level, name: string): name is LifecycleAction {
  return (actionsOf(level) as readonly string[]).includes(name)
}

const opt = (name: string, kind: ParamKind): ParamSpec => ({ name, kind, required: false })

/** The body parameters of an action at a level, required ones first, in billing-api.md's order. */
export function paramSpecs(level: Level, action: LifecycleAction): readonly ParamSpec[] {
  const specs: ParamSpec[] = [
    { name: 'status', kind: 'status', required: true },
    { name: actionDateParam[action], kind: 'date', required: dateRequired.has(action) },
  ]
  if (action === 'drop' || action === 'finalBill') specs.push(opt('cancellationNoticeGivenDate', 'date'))
  if (action === 'drop' && (level === 'customers' || level === 'numbers')) {
    specs.push(opt('ignoreTrafficNumberType', 'ignoreTrafficType'))
  }
  if (action === 'drop' && level === 'features') specs.push(opt('dateBillTo', 'date'))
  if (action === 'reinstate' && level === 'customers') specs.push(opt('dateReinstateNumbersFeatures', 'date'))
  specs.push(opt('statusReason', 'statusReason'))
  return specs
}
