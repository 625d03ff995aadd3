import { notFound } from '../errors.js'
import type { Customer, Feature, ParamsOf } from '../fields/entity.js'
import { currency, date, num, text } from '../fields/field.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'
import { autoCommittedCount } from '../features/feature-terms.js'
import { refreshAfterCharges } from '../credit/credit-alerts.js'
import { planChargeChange, type ChargeChangeParams } from './charge-change.js'
import type { ChargeHistory } from './charge-history.js'
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
 * charge history and its ledger reconciled against it, then its customer's credit alerts
 * measured again (contract 10.6), in one transaction under the customer lock.
 */
export async function changeRecurringCharge(ctx: PlatformContext, featureID: string, params: ParamsOf<typeof chargeChangeParams>): Promise<Feature> {
  return ctx.store.transaction(async (store) => {
    const customer = await changeChargeLocked(ctx, store, featureID, params)
    await refreshAfterCharges(store, customer, ctx.clock.now(), ctx)
    return (await store.repository('features').get(featureID))!
  })
}

/**
 * changeRecurringCharge's change in the caller's transaction, taking the customer's lock then the
 * feature's, without measuring credit alerts: the caller does once it has written all it writes
 * (the annual increase job changes a feature once per yearly date). Answers the customer.
 */
export async function changeChargeLocked(
  ctx: PlatformContext,
  store: Store,
  featureID: string,
  params: ParamsOf<typeof chargeChangeParams> & Pick<ChargeChangeParams, 'annualIncrease'>,
): Promise<Customer> {
  const peek = await store.repository('features').get(featureID)
  if (!peek) throw notFound('feature', featureID)
  const customer = peek.customerID ? await store.repository('customers').getForUpdate(peek.customerID) : undefined
  if (!customer) throw notFound('customer', peek.customerID ?? `of feature ${featureID}`)
  const feature = await store.repository('features').getForUpdate(featureID)
  // Deleted while this waited for the customer's lock (contract 2: not found, never a failure).
  if (!feature) throw notFound('feature', featureID)
  const { history } = (await billingInputs(store, ctx.presets, [feature], new Map([[customer.id, customer]]))).get(featureID)!
  // `Peak Count` follows the highest count the feature has had (contract 11), from the change on.
  const peak = params.featureCount == null ? null : autoCommittedCount({ featureCount: params.featureCount }, feature)
  await recordChargeChange(ctx, store, feature, feature, customer, history, peak === null ? params : { ...params, featureCountCommitted: peak })
  return customer
}

/**
 * Records a charge change of a feature whose rows the caller holds locked (the customer first):
 * `history` is its charge history before the change, `feature` what it is to be after it but for
 * its charge (a PATCH has stored its other fields). Writes the ledger difference, the new history,
 * the charge in force last, the committed count and `lastUpdatedDate` (the date it took effect).
 * The caller measures the customer's credit alerts after it (`refreshAfterCharges`).
 */
export async function recordChargeChange(
  ctx: Pick<PlatformContext, 'presets' | 'clock'>,
  store: Store,
  before: Feature,
  feature: Feature,
  customer: Customer,
  history: ChargeHistory,
  params: ChargeChangeParams,
): Promise<void> {
  const ledger = (await store.ledger.engineRows([feature.id])).get(feature.id) ?? []
  const { feature: terms } = (await billingInputs(store, ctx.presets, [feature], new Map([[customer.id, customer]]))).get(feature.id)!
  const plan = planChargeChange(params, { ...terms, isDropped: before.isDropped === true }, history, ledger, {
    transactionTypes: ctx.presets.lists.transactionTypes ?? [],
  })
  await store.ledger.write(ledgerWrites(feature, customer, plan.diff, ctx.presets, ctx.clock.now()))
  const latest = plan.history.reduce((a, b) => (b.from >= a.from ? b : a))
  await store.repository('features').update(feature.id, {
    ...(params.featureCountCommitted !== undefined ? { featureCountCommitted: latest.committed ?? null } : {}),
    chargeHistory: serializeHistory(plan.history),
    serviceCharge: plan.serviceCharge,
    featureCount: plan.featureCount,
    lastUpdatedDate: plan.dateFrom,
    updatedStamp: ctx.clock.now(),
  })
}
