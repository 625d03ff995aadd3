import type { Customer } from '../fields/entity.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { recordChanges } from '../history/record-change.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'
import { toParsedAction } from './action-params.js'
import { applyLifecycleAction } from './run-action.js'

/**
 * The customer action `suspend` or `unsuspend` taken by the platform itself (dunning, a credit
 * limit: contract 15.2), in the caller's transaction, as a person's would be: the same state
 * change and cascade, the history entry (by `system`) and the event.
 */
export async function systemCustomerAction(
  ctx: { readonly clock: Clock; readonly resources: ReadonlyMap<ResourceName, Resource> },
  store: Store,
  before: Customer,
  action: 'suspend' | 'unsuspend',
  statusReason: string,
): Promise<Customer> {
  const status = action === 'suspend' ? 'Suspended' : 'Active'
  await applyLifecycleAction(store, before.id, toParsedAction('customers', action, { status, statusReason }, ctx.clock))
  const after = (await store.repository('customers').get(before.id))!
  await recordChanges(store, ctx.clock, [{ resource: ctx.resources.get('customers')!, action, before, after }])
  return after
}
