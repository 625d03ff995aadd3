import type { CallClass } from '../fields/call-classes.js'
import type { Store } from '../ports/store.js'
import { byHolder, featureTariffName, pricingFeature } from '../rating/feature-tariffs.js'
import { dateOfStamp } from '../rating/time-band.js'
import type { RunCall, RunCustomer } from '../ports/run-fields.js'

/** A call's VAT rate, by its `Call Charges` row's rules. */
export type CallVATRate = (call: RunCall, customer: RunCustomer) => string | null

/** The rate of the feature that priced a call; undefined when none did, or it sets none. */
type FeatureRate = (call: RunCall, customer: RunCustomer) => string | undefined

/**
 * The VAT rate of each call's `Call Charges` row (contract 17.7): the `VATRateCalls` of the
 * feature that priced it, else its number's, else the customer's (`VATRateCalls`, then `VATRate`).
 * The feature is the one rating recorded on the call (`pricingFeatureID`): calls are not priced
 * again when features change, so a feature added, back-dated or dropped since changes neither
 * their price nor their rate. Only the numbers and features that set a rate are read, one small
 * read each a batch.
 */
export async function callVATRates(store: Store, calls: readonly RunCall[], customerIDs: readonly string[]): Promise<CallVATRate> {
  const numberIDs = [...new Set(calls.flatMap((c) => (c.numberID ? [c.numberID] : [])))]
  const featureIDs = [...new Set(calls.flatMap((c) => (c.pricingFeatureID ? [c.pricingFeatureID] : [])))]
  const [numbers, features, through] = await Promise.all([
    numberIDs.length ? store.repository('numbers').listIn('id', numberIDs, [{ op: 'isNull', column: 'VATRateCalls', value: false }]) : [],
    featureIDs.length ? store.repository('features').listIn('id', featureIDs, [{ op: 'isNull', column: 'VATRateCalls', value: false }]) : [],
    store.rating.pricingFeaturesUnrecordedThrough(),
  ])
  const numberRates = new Map(numbers.map((n) => [n.id, (n.VATRateCalls as string | null | undefined) || null]))
  const customerRate: CallVATRate = (call, customer) => numberRates.get(call.numberID!) ?? ((customer.VATRateCalls ?? customer.VATRate ?? null) || null)
  // A feature that priced a call without a rate of its own (or deleted since) leaves it the number's, as no feature would.
  const featureRates = new Map(features.flatMap((f) => (f.VATRateCalls ? [[f.id, f.VATRateCalls as string] as const] : [])))
  // Calls stored before calls recorded it (migration 0088) record none: their feature is found again.
  const unrecorded = (call: RunCall) => through !== null && !call.pricingFeatureID && idAtMost(call.id, through)
  const older = calls.filter(unrecorded)
  const derived = older.length ? await foundAgain(store, older, customerIDs) : null
  if (featureRates.size === 0 && derived === null) return customerRate
  return (call, customer) => {
    const rate = call.pricingFeatureID ? featureRates.get(call.pricingFeatureID) : derived && unrecorded(call) ? derived(call, customer) : undefined
    return rate ?? customerRate(call, customer)
  }
}

/** Whether one ID is at most another: IDs are digits without leading zeros, so the longer is the larger. */
const idAtMost = (id: string, through: string): boolean => id.length < through.length || (id.length === through.length && id <= through)

/**
 * The feature rates of calls stored before calls recorded their pricing feature (migration 0088):
 * found again as rating finds it (`pricingFeature`) from today's features, one read of the
 * batch's features, not a query per call. Null when no such feature sets a rate.
 */
async function foundAgain(store: Store, calls: readonly RunCall[], customerIDs: readonly string[]): Promise<FeatureRate | null> {
  const classes = [...new Set(calls.flatMap((c) => (c.callType ? [c.callType as CallClass] : [])))]
  const features = classes.length ? await store.rating.featureTariffs(customerIDs, classes) : []
  if (!features.some((f) => f.VATRateCalls)) return null
  // A feature naming a tariff that no longer exists priced nothing, as in rating.
  const names = [...new Set(features.flatMap((f) => classes.map((c) => featureTariffName(f, c)).filter((n): n is string => n !== null)))]
  const existing = await store.namesExisting('tariffs', names)
  const held = byHolder(features)
  return (call, customer) => {
    if (!call.numberID || !call.callType || !call.startTime) return undefined
    const f = pricingFeature(held, call.numberID, customer.id, call.callType as CallClass, dateOfStamp(call.startTime), (name) => existing.has(name))
    return f?.VATRateCalls || undefined
  }
}
