import type { DateOnly } from '../dates/date-only.js'
import { callClasses, type CallClass } from '../fields/call-classes.js'

type TariffField = (typeof callClasses)[number]['tariff']

/**
 * A feature that names a call tariff for some class (contract 17.7), as rating reads it: its
 * dates, its owner, the VAT rate of the calls it prices, and its `<class>Tariff` names.
 */
export type FeatureTariffs = {
  readonly id: string
  readonly customerID: string
  /** Null for a feature on the customer: it prices the customer's numbers (`pricingFeature`). */
  readonly numberID: string | null
  readonly startDate: DateOnly | null
  readonly endDate: DateOnly | null
  /** Set on a dropped feature: the last day it is charged, so the last day it prices calls. */
  readonly billToDate: DateOnly | null
  readonly isDropped: boolean
  readonly VATRateCalls: string | null
} & { readonly [K in TariffField]?: string | null }

/** A batch's features by holder, each list in precedence order (`inPrecedence`). */
export interface FeaturesByHolder {
  /** Features on a number, by number ID. */
  readonly numbers: ReadonlyMap<string, readonly FeatureTariffs[]>
  /** Features on a customer (on no number or service), by customer ID. */
  readonly customers: ReadonlyMap<string, readonly FeatureTariffs[]>
}

const tariffFieldOf = new Map(callClasses.map((c) => [c.key, c.tariff] as const))

/** The tariff name a feature gives a class, or null. */
export function featureTariffName(f: FeatureTariffs, callClass: CallClass): string | null {
  const name = f[tariffFieldOf.get(callClass)!]
  return name ? name : null
}

/** Whether the feature is active on `date`: started, not ended, and not dropped before it. */
export function activeOn(f: FeatureTariffs, date: DateOnly): boolean {
  if (f.startDate !== null && date < f.startDate) return false
  if (f.endDate !== null && date > f.endDate) return false
  if (f.isDropped) return f.billToDate !== null && date <= f.billToDate
  return true
}

/**
 * The feature whose tariff prices a call of `callClass` on `date`: among the number's own active
 * features naming a tariff for the class, the later `startDate`, then the higher ID; when the
 * number has none, the same among its customer's features on no number. `exists` says whether a
 * name still names a tariff (a name that names none counts as unset, as on numbers).
 */
export function pricingFeature(
  features: FeaturesByHolder,
  numberID: string,
  customerID: string,
  callClass: CallClass,
  date: DateOnly,
  exists: (name: string) => boolean = () => true,
): FeatureTariffs | null {
  return firstPricing(features.numbers.get(numberID), callClass, date, exists) ?? firstPricing(features.customers.get(customerID), callClass, date, exists)
}

function firstPricing(list: readonly FeatureTariffs[] | undefined, callClass: CallClass, date: DateOnly, exists: (name: string) => boolean): FeatureTariffs | null {
  if (list === undefined) return null
  for (const f of list) {
    const name = featureTariffName(f, callClass)
    if (name !== null && activeOn(f, date) && exists(name)) return f
  }
  return null
}

/** Precedence among one holder's features: later `startDate` first (unset is earliest), then higher ID. */
export function inPrecedence(a: FeatureTariffs, b: FeatureTariffs): number {
  const as = a.startDate ?? ''
  const bs = b.startDate ?? ''
  if (as !== bs) return as > bs ? -1 : 1
  // IDs are digits without leading zeros: the longer is the larger.
  return b.id.length - a.id.length || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0)
}

/** Features grouped by holder, each group in precedence order. */
export function byHolder(features: readonly FeatureTariffs[]): FeaturesByHolder {
  const numbers = new Map<string, FeatureTariffs[]>()
  const customers = new Map<string, FeatureTariffs[]>()
  for (const f of features) {
    const [map, key] = f.numberID === null ? [customers, f.customerID] : [numbers, f.numberID]
    const list = map.get(key)
    if (list) list.push(f)
    else map.set(key, [f])
  }
  for (const list of [...numbers.values(), ...customers.values()]) list.sort(inPrecedence)
  return { numbers, customers }
}

/** No features: rating reads numbers and customers alone. */
export const NO_FEATURES: FeaturesByHolder = { numbers: new Map(), customers: new Map() }
