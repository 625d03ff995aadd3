import { callClasses, customerDefault, type CallClass } from '../fields/call-classes.js'
import type { DateOnly } from '../dates/date-only.js'
import { increaseByPercent, type Money } from '../money/money.js'
import { featureTariffName, pricingFeature, type FeaturesByHolder, type FeatureTariffs } from './feature-tariffs.js'
import type { RatingTariff } from './rating-tariff.js'
import { amountOf, type WireNumber } from './wire-amount.js'

type ClassInfo = (typeof callClasses)[number]
type TariffField = ClassInfo['tariff']
type MarkupField = ClassInfo['markup']

/** A number's tariff names and markups per class (catalogue names: `nationalTariff`, `nationalMarkup`, ...). */
export type NumberTariffSettings = { readonly [K in TariffField]?: string | null } & {
  readonly [K in MarkupField]?: WireNumber
} & { readonly fallbackMarkup?: WireNumber }

/** A customer's defaults per class (`defaultNationalTariff`, `defaultNationalMarkup`, ...). */
export type CustomerTariffSettings = { readonly [K in TariffField as `default${Capitalize<K>}`]?: string | null } & {
  readonly [K in MarkupField as `default${Capitalize<K>}`]?: WireNumber
} & { readonly fallbackMarkup?: WireNumber }

/** A read-only keyed lookup; a `Map` is one. */
export interface Lookup<V> {
  get(key: string): V | undefined
}

export interface SelectedTariff<T extends RatingTariff = RatingTariff> {
  readonly tariff: T
  readonly from: 'number' | 'customer'
}

/** A feature's tariff for a call, with the feature: the call records which feature priced it. */
export interface FeatureSelection<T extends RatingTariff = RatingTariff> {
  readonly tariff: T
  readonly feature: FeatureTariffs
}

export interface SelectedMarkup {
  /** Percentage in Money units (12.5% → 12.5000). */
  readonly percent: Money
  readonly from: 'number' | 'customer' | 'number fallback' | 'tariff fallback' | 'customer fallback'
}

/** A class's field names, the customer's defaults included, made once: rating asks for every record. */
const classFields = new Map(
  callClasses.map((c) => [c.key, { tariff: c.tariff, markup: c.markup, defaultTariff: customerDefault(c.tariff), defaultMarkup: customerDefault(c.markup) }] as const),
)
const fieldsOf = (c: CallClass) => classFields.get(c)!

/**
 * The tariff for a call class: the number's `<class>Tariff`, else the customer's
 * `default<Class>Tariff`. Both hold tariff names, looked up in `tariffsByName`; a name that
 * names no tariff (since deleted) counts as unset. Null when neither gives one.
 */
export function selectTariff<T extends RatingTariff>(
  callClass: CallClass,
  number: NumberTariffSettings,
  customer: CustomerTariffSettings,
  tariffsByName: Lookup<T>,
): SelectedTariff<T> | null {
  const fields = fieldsOf(callClass)
  const own = number[fields.tariff]
  const fromNumber = own ? tariffsByName.get(own) : undefined
  if (fromNumber) return selected(fromNumber, 'number')
  const dflt = customer[fields.defaultTariff]
  const fromCustomer = dflt ? tariffsByName.get(dflt) : undefined
  return fromCustomer ? selected(fromCustomer, 'customer') : null
}

/**
 * The tariff a feature gives the call, with that feature (contract 17.7: feature, then number,
 * then customer default), or null when no active feature of the number or its customer names one
 * for the class.
 */
export function selectFeatureTariff<T extends RatingTariff>(
  features: FeaturesByHolder,
  callClass: CallClass,
  number: { readonly numberID: string; readonly customerID: string },
  date: DateOnly,
  tariffsByName: Lookup<T>,
): FeatureSelection<T> | null {
  const feature = pricingFeature(features, number.numberID, number.customerID, callClass, date, (name) => tariffsByName.get(name) !== undefined)
  return feature ? { tariff: tariffsByName.get(featureTariffName(feature, callClass)!)!, feature } : null
}

/** Each tariff's selections, made once (results are read, never changed), not once a call. */
const selections = new WeakMap<RatingTariff, Record<SelectedTariff['from'], SelectedTariff>>()

function selected<T extends RatingTariff>(tariff: T, from: SelectedTariff['from']): SelectedTariff<T> {
  let all = selections.get(tariff)
  if (!all) selections.set(tariff, (all = { number: { tariff, from: 'number' }, customer: { tariff, from: 'customer' } }))
  return all[from] as SelectedTariff<T>
}

/**
 * The markup percentage for a call the tariff has no rate for (or no tariff at all), most
 * specific first: the number's `<class>Markup`, the customer's `default<Class>Markup`, then the
 * last-resort `fallbackMarkup` of the number, of the selected tariff, of the customer. 0 is a
 * markup (charge at cost); unset is not. `fallbackMarkupSuggested` is never used to bill.
 */
export function selectMarkup(
  callClass: CallClass,
  number: NumberTariffSettings,
  customer: CustomerTariffSettings,
  tariff: Pick<RatingTariff, 'fallbackMarkup'> | null,
): SelectedMarkup | null {
  const { markup: field, defaultMarkup } = fieldsOf(callClass)
  const candidates: [WireNumber, string, SelectedMarkup['from']][] = [
    [number[field], field, 'number'],
    [customer[defaultMarkup], defaultMarkup, 'customer'],
    [number.fallbackMarkup, 'fallbackMarkup', 'number fallback'],
    [tariff?.fallbackMarkup, 'fallbackMarkup', 'tariff fallback'],
    [customer.fallbackMarkup, 'fallbackMarkup', 'customer fallback'],
  ]
  for (const [value, name, from] of candidates) {
    const percent = amountOf(value, name)
    if (percent !== null) return { percent, from }
  }
  return null
}

/** wholesale × (100 + percent) / 100, rounded half up to 4 places. */
export const applyMarkup = (wholesale: Money, percent: Money): Money => increaseByPercent(wholesale, percent)
