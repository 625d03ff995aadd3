import { catalogue } from '../fields/catalogue.js'
import type { Feature } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import { updateItem } from '../resources/resources.js'
import { recordChargeChange } from './change-charge.js'
import { billingInputs } from './billing-inputs.js'
import { chargePatch } from './charge-patch.js'

/** The fields whose change is a change of the charge, never a rewrite of history (contract 17.5). */
export const chargeFields = ['serviceCharge', 'featureCount', 'featureCountCommitted', 'serviceChargeInterval'] as const

/**
 * PATCH of a feature (contract 2, 17.5). A change of a charge field is recorded as a `replace`
 * charge change, by the same code as `changeRecurringCharge`: from the `updatedDate` the request
 * sets (a value other than the stored one), else from the feature's `dueDate`, the first day not
 * yet charged. Periods before that date keep their charges, approved or not.
 */
export async function updateFeature(ctx: PlatformContext, id: string, body: unknown): Promise<Feature> {
  return ctx.store.transaction(async (store) => {
    const features = store.repository('features')
    const peek = await features.get(id)
    // The customer first, as every charge change locks them (contract 9.4).
    const customer = peek?.customerID ? await store.repository('customers').getForUpdate(peek.customerID) : undefined
    const before = await features.getForUpdate(id)
    const after = (await updateItem({ ...ctx, store }, catalogue.features, id, body)) as Feature
    if (!before || !customer || !before.startDate || !after.startDate) return after
    if (!chargeFields.some((f) => before[f] !== after[f])) return after
    const inputs = (await billingInputs(store, ctx.presets, [before], new Map([[customer.id, customer]]))).get(id)!
    const patch = chargePatch(
      inputs,
      { serviceCharge: after.serviceCharge, featureCount: after.featureCount ?? 1, featureCountCommitted: after.featureCountCommitted, interval: after.serviceChargeInterval ?? 'Monthly' },
      after.updatedDate !== before.updatedDate ? after.updatedDate : null,
    )
    await recordChargeChange(ctx, store, before, after, customer, patch.history, patch.params)
    return (await features.get(id)) as Feature
  })
}
