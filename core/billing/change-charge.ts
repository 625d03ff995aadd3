import type { Feature, ParamsOf } from '../fields/entity.js'
import { currency, date, num, text } from '../fields/field.js'
import type { PlatformContext } from '../platform.js'
import { autoCommittedCount } from '../features/feature-terms.js'
import { planChargeChange } from './charge-change.js'
import { ledgerWrites } from './ledger-writes.js'
import { serializeHistory } from './stored-feature.js'
import { billingInputs } from './billing-inputs.js'

/**
 * The parameters of changeRecurringCharge (billing-api.md). The mode is text: a name other than
 * replace, add or delta is billing-api.md's own error (`invalid_charge_change`), not a bad value.
 */
export const chargeChangeParams = [
  currency('serviceCharge', { description: 'new unit price; default the one in force on dateFrom' }),
  num('featureCount', { wholeFrom: 0, description: 'new count; default the one in force on dateFrom' }),
  date('dateFrom', { description: "date the change takes effect; default the feature's dueDate (required for add)" }),
  text('chargeChangeMode', { description: 'replace (default), add or delta' }),
] as const

/**
 * changeRecurringCharge on a feature (contract 9.4): the change is recorded in the feature's
 * charge history and its ledger reconciled against it, in one transaction under the customer lock.
 */
export async function changeRecurringCharge(ctx: PlatformContext, featureID: string, params: ParamsOf<typeof chargeChangeParams>): Promise<Feature> {
  return ctx.store.transaction(async (store) => {
    const peek = (await store.repository('features').get(featureID))!
    const customer = (await store.repository('customers').getForUpdate(peek.customerID ?? ''))!
    const feature = (await store.repository('features').getForUpdate(featureID))!
    const ledger = (await store.ledger.engineRows([featureID])).get(featureID) ?? []
    const { feature: terms, history } = (await billingInputs(store, ctx.presets, [feature], new Map([[customer.id, customer]]))).get(featureID)!
    const plan = planChargeChange(params, terms, history, ledger, {
      transactionTypes: ctx.presets.lists.transactionTypes ?? [],
    })
    await store.ledger.write(ledgerWrites(feature, customer, plan.diff, ctx.presets, ctx.clock.now()))
    // `Peak Count` follows the highest count the history holds (contract 11).
    const peak = autoCommittedCount({ featureCount: Math.max(...plan.history.map((v) => v.featureCount)) }, feature)
    await store.repository('features').update(featureID, {
      ...(peak !== null ? { featureCountCommitted: peak } : {}),
      chargeHistory: serializeHistory(plan.history),
      serviceCharge: plan.serviceCharge,
      featureCount: plan.featureCount,
      lastUpdatedDate: plan.dateFrom,
      updatedStamp: ctx.clock.now(),
    })
    return (await store.repository('features').get(featureID))!
  })
}
