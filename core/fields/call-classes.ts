/**
 * The call classes a tariff can be chosen for. Numbers and features carry `<class>Tariff`
 * and `<class>Markup`; customers carry the same with a `default` prefix.
 */
export const callClasses = [
  { key: 'inbound', tariff: 'inboundTariff', markup: 'inboundMarkup', label: 'Inbound' },
  { key: 'national', tariff: 'nationalTariff', markup: 'nationalMarkup', label: 'National' },
  { key: 'mobile', tariff: 'mobileTariff', markup: 'mobileMarkup', label: 'Mobile' },
  { key: 'nongeographic', tariff: 'nongeographicTariff', markup: 'nongeographicMarkup', label: 'Non-Geographic' },
  { key: 'serviceNumbers', tariff: 'serviceNumbersTariff', markup: 'serviceNumbersMarkup', label: 'Service Numbers' },
  { key: 'international', tariff: 'internationalTariff', markup: 'internationalMarkup', label: 'International' },
  {
    key: 'extendedInternational',
    tariff: 'extendedInternationalTariff',
    markup: 'extendedInternationalMarkup',
    label: 'Extended International',
  },
  { key: 'surcharges', tariff: 'surchargesTariff', markup: 'surchargesMarkup', label: 'Surcharges' },
  { key: 'bespoke1', tariff: 'bespokeTariff1', markup: 'bespokeTariff1Markup', label: 'Bespoke 1' },
  { key: 'bespoke2', tariff: 'bespokeTariff2', markup: 'bespokeTariff2Markup', label: 'Bespoke 2' },
] as const

export type CallClass = (typeof callClasses)[number]['key']

/** The class names, as stored in a call's `callType`. */
export const callClassKeys: readonly CallClass[] = callClasses.map((c) => c.key)

/** `inboundTariff` → `defaultInboundTariff`, the customer's field for the same class. */
export const customerDefault = <const S extends string>(fieldName: S) =>
  `default${fieldName[0].toUpperCase()}${fieldName.slice(1)}` as `default${Capitalize<S>}`
