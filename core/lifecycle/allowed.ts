import { BillingError } from '../errors.js'
import type { LifecycleAction } from './actions.js'
import type { LifecycleState } from './state.js'

/**
 * Why the allowed-when table of contract 5.2 refuses an action, or null when it allows it.
 * `ancestors` are the states of the item's parents (customer; for a feature also its number or
 * service); only reinstate looks at them.
 */
export function refusal(
  action: LifecycleAction,
  item: LifecycleState,
  ancestors: readonly LifecycleState[] = [],
): string | null {
  switch (action) {
    case 'drop':
      return item.isDropped ? 'it is already dropped' : null
    case 'reinstate':
      if (!item.isDropped) return 'it is not dropped'
      return ancestors.some((a) => a.isDropped) ? 'its parent is dropped; reinstate the parent first' : null
    case 'suspend':
      if (item.isDropped) return 'it is dropped'
      return item.isSuspended ? 'it is already suspended' : null
    case 'unsuspend':
      return item.isSuspended ? null : 'it is not suspended'
    case 'makeNonBillable':
      return item.isBillable ? null : 'it is already non-billable'
    case 'makeBillable':
      return item.isBillable ? 'it is already billable' : null
    case 'finalBill':
      if (item.isDropped) return 'the customer is dropped'
      return item.isFinalBill ? 'the customer is already in final bill' : null
  }
}

/** Throws `state_not_allowed` when the table of contract 5.2 refuses the action. */
export function assertAllowed(
  action: LifecycleAction,
  item: LifecycleState,
  ancestors: readonly LifecycleState[] = [],
): void {
  const why = refusal(action, item, ancestors)
  if (why !== null) {
    throw new BillingError('state_not_allowed', `Action ${action} is not allowed: ${why}`, hints[action])
  }
}

const hints: Record<LifecycleAction, string> = {
  drop: 'drop needs an item that is not dropped.',
  reinstate: 'reinstate needs a dropped item whose customer, number or service is not dropped.',
  suspend: 'suspend needs an item that is neither dropped nor suspended.',
  unsuspend: 'unsuspend needs a suspended item.',
  makeNonBillable: 'makeNonBillable needs a billable item.',
  makeBillable: 'makeBillable needs a non-billable item.',
  finalBill: 'finalBill needs a customer that is neither dropped nor already in final bill.',
}
