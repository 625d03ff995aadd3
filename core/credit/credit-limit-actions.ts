import type { Customer, TelephoneNumber } from '../fields/entity.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { toWireJson } from '../fields/wire-json.js'
import { systemCustomerAction } from '../lifecycle/system-action.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'
import { profileOf } from '../presets/collections.js'
import { REGULATOR_PROTECTION, withholds } from '../presets/regulator-protection.js'
import type { Presets } from '../presets/presets.js'
import { creditAlertNames, type CreditAlertName } from '../presets/engine-lists.js'

/** `statusReason` of a suspension a credit limit makes (contract 15.2). */
export const CREDIT_LIMIT_REASON = 'Credit Limit'

/** What acting on a passed limit needs of the platform. */
export interface CreditLimitActing {
  /** The profiles that act, and the lists that say which customers require regulator protection. */
  readonly presets: Pick<Presets, 'dunningProfiles' | 'defaultDunningProfile' | 'lists'>
  readonly clock: Clock
  readonly resources: ReadonlyMap<ResourceName, Resource>
}

/** A customer's limits passed just now: the alerts new since the last measure, and its numbers newly over their own limits. */
export interface PassedLimits {
  readonly customerID: string
  /** Empty when only numbers passed their limits while its `numberCreditLimit` alert stayed raised. */
  readonly alerts: readonly CreditAlertName[]
  readonly numbersOver: readonly string[]
}

/**
 * What the customer's dunning profile says to do when a limit is newly passed (contract 15.2,
 * `onCreditLimit`): `alert` nothing more than the alert; `suspend` the customer action `suspend`
 * (`statusReason` `Credit Limit`) unless it is suspended or dropped already; `bar` one event
 * `number.bar_requested` per number to bar: the numbers over their own limit (`numberCreditLimit`),
 * or every active number of the customer over `creditLimitCalls`; the other limits (balance,
 * overdue, unsent) alert only. Once per passing: an alert that stays raised acts no more, but a
 * number passing its own limit while another keeps `numberCreditLimit` raised is barred too;
 * `suspend` and `alert` act on the customer's alerts alone, so such a number does nothing more. A
 * customer requiring regulator protection is not suspended or barred where the presets'
 * `regulatorProtectedActions` say so: one event
 * `customer.credit_limit_action_withheld` says what was not done, for a person to decide.
 */
export async function actOnCreditLimits(ctx: CreditLimitActing, store: Store, passed: readonly PassedLimits[]): Promise<void> {
  for (const p of passed) {
    const customer = await store.repository('customers').get(p.customerID)
    if (!customer) continue
    const action = profileOf(ctx.presets, customer).onCreditLimit
    const withhold = withholds(ctx.presets, customer, action)
    if (action === 'suspend') {
      if (p.alerts.length === 0 || customer.isSuspended || customer.isDropped) continue
      if (withhold) await announceWithheld(ctx, store, customer, action, p.alerts, [])
      else await systemCustomerAction(ctx, store, customer, 'suspend', CREDIT_LIMIT_REASON)
    } else if (action === 'bar') {
      const whole = p.alerts.includes('creditLimitCalls')
      const own = p.numbersOver.length > 0
      if (!whole && !own) continue
      // Each number's reason names the limits that bar it: its own, the customer's calls, or both.
      const reasons = (id: string): CreditAlertName[] => [...(whole ? ['creditLimitCalls' as const] : []), ...(own && p.numbersOver.includes(id) ? ['numberCreditLimit' as const] : [])]
      const numbers = (
        await store.repository('numbers').list({
          where: [
            { op: 'eq', column: 'customerID', value: p.customerID },
            { op: 'eq', column: 'isDropped', value: false },
          ],
          limit: Number.MAX_SAFE_INTEGER,
        })
      ).filter((n) => reasons(n.id).length > 0)
      if (numbers.length === 0) continue
      if (withhold) {
        // The limits that would bar: a number passing its own names numberCreditLimit, raised before or now.
        const alerts = own && !p.alerts.includes('numberCreditLimit') ? creditAlertNames.filter((a) => a === 'numberCreditLimit' || p.alerts.includes(a)) : p.alerts
        await announceWithheld(ctx, store, customer, action, alerts, numbers)
        continue
      }
      const resource = ctx.resources.get('numbers')!
      const now = ctx.clock.now()
      await store.changes.append([], numbers.map((n) => ({ type: 'number.bar_requested', data: `{"reason":${JSON.stringify(reasons(n.id))},"number":${toWireJson(resource, n)}}`, createdStamp: now })))
    }
  }
}

/** The event of a suspension or barring not made for a customer requiring protection: what, why, of whom, and the numbers it would have barred. */
async function announceWithheld(ctx: CreditLimitActing, store: Store, customer: Customer, action: 'suspend' | 'bar', alerts: readonly CreditAlertName[], numbers: readonly TelephoneNumber[]): Promise<void> {
  const numberJson = numbers.map((n) => toWireJson(ctx.resources.get('numbers')!, n)).join(',')
  const data = `{"reason":"${REGULATOR_PROTECTION}","regulatorProtectionClass":${JSON.stringify(customer.regulatorProtectionClass)},"action":"${action}","alerts":${JSON.stringify(alerts)},"customer":${toWireJson(ctx.resources.get('customers')!, customer)},"numbers":[${numberJson}]}`
  await store.changes.append([], [{ type: 'customer.credit_limit_action_withheld', data, createdStamp: ctx.clock.now() }])
}
