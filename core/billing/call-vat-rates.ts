import type { CallClass } from '../fields/call-classes.js'
import type { Store } from '../ports/store.js'
import { byHolder, featureTariffName, pricingFeature } from '../rating/feature-tariffs.js'
import { dateOfStamp } from '../rating/time-band.js'
import type { RunCall, RunCustomer } from '../ports/run-fields.js'

/** A call's VAT rate, by its `Call Charges` row's rules. */
export type CallVATRate = (call: RunCall, customer: RunCustomer) => string | null

/**
 * The VAT rate of each call's `Call Charges` row (contract 17.7): the `VATRateCalls` of the
 * feature that priced it, else its number's, else the customer's (`VATRateCalls`, then `VATRate`).
 * Which feature priced a call is found again as rating found it (`pricingFeature`) from one read
 * of the batch's features, not a query per call; and only the numbers and features that set a
 * rate are read, so a platform that sets none pays two small reads a batch.
 */
export async function callVATRates(store: Store, calls: readonly RunCall[], customerIDs: readonly string[]): Promise<CallVATRate> {
  const numberIDs = [...new Set(calls.flatMap((c) => (c.numberID ? [c.numberID] : [])))]
  const classes = [...new Set(calls.flatMap((c) => (c.callType ? [c.callType as CallClass] : [])))]
  const [numbers, features] = await Promise.all([
    numberIDs.length ? store.repository('numbers').listIn('id', numberIDs, [{ op: 'isNull', column: 'VATRateCalls', value: false }]) : [],
    classes.length ? store.rating.featureTariffs(customerIDs, classes) : [],
  ])
  const numberRates = new Map(numbers.map((n) => [n.id, (n.VATRateCalls as string | null | undefined) || null]))
  const customerRate: CallVATRate = (call, customer) => numberRates.get(call.numberID!) ?? ((customer.VATRateCalls ?? customer.VATRate ?? null) || null)
  // A feature that priced a call without a rate of its own leaves it the number's, as no feature would.
  if (!features.some((f) => f.VATRateCalls)) return customerRate
  // A feature naming a tariff that no longer exists priced nothing, as in rating.
  const names = [...new Set(features.flatMap((f) => classes.map((c) => featureTariffName(f, c)).filter((n): n is string => n !== null)))]
  const existing = await store.namesExisting('tariffs', names)
  const held = byHolder(features)
  return (call, customer) => {
    if (call.numberID && call.callType && call.startTime) {
      const f = pricingFeature(held, call.numberID, customer.id, call.callType as CallClass, dateOfStamp(call.startTime), (name) => existing.has(name))
      if (f?.VATRateCalls) return f.VATRateCalls
    }
    return customerRate(call, customer)
  }
}
