import type { Item } from '../fields/item.js'
import type { ParsedAction } from '../lifecycle/action-params.js'
import type { LifecycleAction } from '../lifecycle/actions.js'
import type { Level } from '../lifecycle/levels.js'
import { applyLifecycleAction } from '../lifecycle/run-action.js'
import { recordCascade } from '../lifecycle/record-cascade.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { rebillFeatures } from './rebill.js'
import { refreshAfterCharges } from '../credit/credit-alerts.js'

/** Actions that move bill-to dates: charges past them go (or are refunded), and come back on reinstate. */
const movesBillTo: ReadonlySet<LifecycleAction> = new Set(['drop', 'reinstate', 'finalBill'])

/**
 * A lifecycle action (contract 5) with what it means for billing, in one transaction: the
 * state changes and their cascade, then the ledger of every feature whose bill-to date moved and
 * the customer's credit alerts (contract 10.6). Answers the item as it is afterwards.
 */
export async function runLifecycleAction(ctx: PlatformContext, id: string, parsed: ParsedAction): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const { customerID, cascaded } = await applyLifecycleAction(store, id, parsed)
    if (movesBillTo.has(parsed.action)) {
      const customer = (await store.repository('customers').get(customerID))!
      // Once for the customer, after the rows of all its features the action moved.
      if ((await rebillFeatures(ctx, store, await featuresUnder(store, parsed.level, id), customer)) > 0) await refreshAfterCharges(store, customer, ctx.clock.now(), ctx)
    }
    // The item acted on is recorded by the action's runner (runItemAction); what the cascade changed, here.
    await recordCascade(ctx, store, parsed.action, cascaded)
    return (await store.repository(parsed.level).get(id))!
  })
}

/** The features an action on the item can change the billing of. */
async function featuresUnder(store: Store, level: Level, id: string) {
  const column = { customers: 'customerID', numbers: 'numberID', services: 'serviceID', features: 'id' }[level]
  return store.repository('features').list({ where: [{ op: 'eq', column, value: id }], limit: Number.MAX_SAFE_INTEGER })
}
