import type { Customer } from '../fields/entity.js'
import { recordChanges } from '../history/record-change.js'
import type { Store } from '../ports/store.js'
import { profileOf } from '../presets/collections.js'
import type { CreditAlertName } from '../presets/engine-lists.js'
import { withholds } from '../presets/regulator-protection.js'
import { spendAlertNames } from './credit-alerts.js'
import { CREDIT_LIMIT_REASON, type CreditLimitActing } from './credit-limit-actions.js'

/**
 * Whether a suspended customer is over a credit limit its profile suspends for (contract 15.2,
 * `onCreditLimit` `suspend`): a limit alert raised (an expected-spend alert is no limit), and the
 * suspension not one `regulatorProtectedActions` withhold from it. Passing the limit while
 * suspended already (by dunning) suspended nothing more, so a suspension ending now must stay.
 */
export function heldByCreditLimit(ctx: Pick<CreditLimitActing, 'presets'>, customer: Customer): boolean {
  if (profileOf(ctx.presets, customer).onCreditLimit !== 'suspend' || withholds(ctx.presets, customer, 'suspend')) return false
  return (customer.creditAlerts ?? []).some((a) => !spendAlertNames.includes(a as CreditAlertName))
}

/**
 * Makes a suspended customer's suspension the credit limit's (`statusReason` `Credit Limit`), in
 * the caller's transaction, instead of lifting it: the history entry (`suspend`, by `system`) and
 * the event a credit limit's suspension makes. It stays suspended since it was: no lifecycle
 * change, so billing and `statusChangedStamp` see one suspension.
 */
export async function keepSuspendedForCreditLimit(ctx: Pick<CreditLimitActing, 'clock' | 'resources'>, store: Store, before: Customer): Promise<Customer> {
  const after = (await store.repository('customers').update(before.id, { statusReason: CREDIT_LIMIT_REASON, updatedStamp: ctx.clock.now() }))!
  await recordChanges(store, ctx.clock, [{ resource: ctx.resources.get('customers')!, action: 'suspend', before, after }])
  return after
}
