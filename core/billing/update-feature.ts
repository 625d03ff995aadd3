import { catalogue } from '../fields/catalogue.js'
import type { Customer, Feature } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { appendEvents, recordChanges } from '../history/record-change.js'
import { holdNamedTariffs } from '../resources/reference-checks.js'
import { updateItem } from '../resources/resources.js'
import { recordChargeChange } from './change-charge.js'
import { refreshAfterCharges } from '../credit/credit-alerts.js'
import { billingInputs } from './billing-inputs.js'
import { chargePatch } from './charge-patch.js'

/** The fields whose change is a change of the charge, never a rewrite of history (contract 17.5). */
export const chargeFields = ['serviceCharge', 'featureCount', 'featureCountCommitted', 'serviceChargeInterval'] as const

/**
 * PATCH of a feature (contract 2, 17.5). A change of a charge field is recorded as a `replace`
 * charge change, by the same code as `changeRecurringCharge`: from the `updatedDate` the request
 * gives (the stored one too: a correction from the same date; `effectiveDate`), else from the feature's `dueDate`,
 * the first day not yet charged. Periods before that date keep their charges, approved or not.
 * The history entry and `feature.updated` are recorded once the whole change is stored (contract
 * 12: the fields that changed, the feature as GET answers it), with `feature.charge_changed` as
 * `changeRecurringCharge` announces it.
 */
export async function updateFeature(ctx: PlatformContext, id: string, body: unknown): Promise<Feature> {
  return ctx.store.transaction(async (store) => {
    const features = store.repository('features')
    // The tariffs it names first, as every write takes them (holdNamedTariffs), then the customer, as every charge change does (contract 9.4).
    await holdNamedTariffs(store, ctx.validator, catalogue.features, body)
    const peek = await features.get(id)
    const customer = peek?.customerID ? await store.repository('customers').getForUpdate(peek.customerID) : undefined
    const before = await features.getForUpdate(id)
    const updated = (await updateItem({ ...ctx, store }, catalogue.features, id, body, { record: false, held: true })) as Feature
    // The history the update left: a new fixed fee tariff wrote in the prices already charged (tariff-price-freeze.ts).
    const charged = before && customer ? await changeCharge(ctx, store, { ...before, chargeHistory: updated.chargeHistory }, updated, customer, body) : null
    const after = charged ?? updated
    await recordChanges(store, ctx.clock, [{ resource: catalogue.features, action: 'update', before: before ?? null, after }])
    if (charged) await appendEvents(store, ctx.clock, 'feature.charge_changed', catalogue.features, [charged])
    return after
  })
}

/**
 * The charge change a PATCH makes when it changes a charge field (`after` is the feature the
 * update stored): answers the feature after the change, or null when there is none.
 */
async function changeCharge(ctx: PlatformContext, store: Store, before: Feature, after: Feature, customer: Customer, body: unknown): Promise<Feature | null> {
  if (!before.startDate || !after.startDate) return null
  if (!chargeFields.some((f) => before[f] !== after[f])) return null
  const inputs = (await billingInputs(store, ctx.presets, [before], new Map([[customer.id, customer]]))).get(before.id)!
  const patch = chargePatch(
    inputs,
    { serviceCharge: after.serviceCharge, featureCount: after.featureCount ?? 1, featureCountCommitted: after.featureCountCommitted, interval: after.serviceChargeInterval ?? 'Monthly' },
    effectiveDate(before, after, body),
  )
  await recordChargeChange(ctx, store, before, after, customer, patch.history, patch.params)
  await refreshAfterCharges(store, customer, ctx.clock.now(), ctx)
  // Locked by the caller, so still there.
  return (await store.repository('features').get(before.id))!
}

/**
 * The date a PATCH's charge change takes effect from: the body's `updatedDate`, even the stored
 * one, since a correction from the same date is from that date. But only when a change took
 * effect from the stored one (`lastUpdatedDate`): a drop or reinstate records its own date there
 * too (billing-api.md), and a GET body sent back with a new price would re-price every period
 * since, invoiced or not. Null: from the `dueDate`.
 */
function effectiveDate(before: Feature, after: Feature, body: unknown): Feature['updatedDate'] {
  if (!hasUpdatedDate(body)) return null
  const sentBack = after.updatedDate !== null && after.updatedDate === before.updatedDate && after.updatedDate !== before.lastUpdatedDate
  return sentBack ? null : after.updatedDate
}

/** Whether a PATCH body gives `updatedDate` (null included: then the change is from the dueDate). */
const hasUpdatedDate = (body: unknown): boolean => typeof body === 'object' && body !== null && Object.hasOwn(body, 'updatedDate') && (body as { updatedDate?: unknown }).updatedDate !== undefined
