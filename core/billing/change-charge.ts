import { countParam, dateParam, moneyParam, readParams, textParam } from '../actions/params.js'
import type { Item } from '../fields/item.js'
import type { PlatformContext } from '../platform.js'
import { planChargeChange } from './charge-change.js'
import { ledgerWrites } from './ledger-writes.js'
import { serializeHistory } from './stored-feature.js'
import { billingInputs } from './billing-inputs.js'

/**
 * changeRecurringCharge on a feature (contract 9.4): the change is recorded in the feature's
 * charge history and its ledger reconciled against it, in one transaction under the customer lock.
 */
export async function changeRecurringCharge(ctx: PlatformContext, featureID: string, body: Record<string, unknown>): Promise<Item> {
  const params = readParams('changeRecurringCharge', body, {
    serviceCharge: moneyParam('serviceCharge'),
    featureCount: countParam('featureCount'),
    dateFrom: dateParam('dateFrom'),
    chargeChangeMode: textParam('chargeChangeMode'),
  })
  return ctx.store.transaction(async (store) => {
    const peek = (await store.repository('features').get(featureID))!
    const customer = (await store.repository('customers').getForUpdate(peek.customerID as string))!
    const feature = (await store.repository('features').getForUpdate(featureID))!
    const ledger = (await store.ledger.engineRows([featureID])).get(featureID) ?? []
    const { feature: terms, history } = (await billingInputs(store, [feature], new Map([[customer.id, customer]]))).get(featureID)!
    const plan = planChargeChange(params, terms, history, ledger, {
      transactionTypes: ctx.presets.lists.transactionTypes ?? [],
    })
    await store.ledger.write(ledgerWrites(feature, customer, plan.diff, ctx.presets, ctx.clock.now()))
    await store.repository('features').update(featureID, {
      chargeHistory: serializeHistory(plan.history),
      serviceCharge: plan.serviceCharge,
      featureCount: plan.featureCount,
      lastUpdatedDate: plan.dateFrom,
      updatedStamp: ctx.clock.now(),
    })
    return (await store.repository('features').get(featureID))!
  })
}
