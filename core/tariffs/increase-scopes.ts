import { fixedFeeTariffDetails } from '../fields/fixed-fee-tariff-details.js'
import { fixedFeeTariffs } from '../fields/fixed-fee-tariffs.js'
import type { Resource } from '../fields/resource.js'
import { tariffDetails } from '../fields/tariff-details.js'
import { surcharges } from '../fields/tariff-fields.js'
import { tariffs } from '../fields/tariffs.js'
import { callIncreaseScopes, fixedFeeIncreaseScopes } from '../presets/engine-lists.js'

/** The two kinds of tariff an increase applies to, each with its rate table (contract 9.6). */
export const tariffKinds = {
  tariffs: { details: 'tariffDetails', ownerField: 'tariffID', scopeList: 'callIncreaseScopes', scopes: callIncreaseScopes },
  fixedFeeTariffs: {
    details: 'fixedFeeTariffDetails',
    ownerField: 'fixedFeeTariffID',
    scopeList: 'fixedFeeIncreaseScopes',
    scopes: fixedFeeIncreaseScopes,
  },
} as const

export type TariffKind = keyof typeof tariffKinds
export type IncreaseScope<K extends TariffKind = TariffKind> = (typeof tariffKinds)[K]['scopes'][number]

/** The price fields one scope raises: on the tariff row itself, and on each of its detail rows. */
export interface IncreasedFields {
  readonly tariff: readonly string[]
  readonly details: readonly string[]
}

/**
 * Every price of a call tariff row: the base rate with its connection, minimum, maximum and
 * secondary connection, the access charge and each surcharge with their connection parts.
 * Not prices: rounding methods and steps, durations, markups (percentages), and the free-text
 * `baseInitialCost`.
 */
const callTariffPrices = [
  'baseCost',
  'baseCostConnection',
  'baseCostMin',
  'baseCostMax',
  'baseCostSecondaryConnection',
  'baseAccessCharge',
  'baseAccessChargeConnection',
  ...surcharges.flatMap(({ kind }) => [`baseSurcharge${kind}`, `baseSurcharge${kind}Connection`]),
]

/** Every exact-money field of a rate table: a detail row holds only prices as currency. */
const moneyFields = (resource: Resource): string[] => resource.columns.filter((f) => f.type === 'currency').map((f) => f.name)

/** Which fields each scope raises (billing-api.md, Call tariffs and Fixed fee tariffs). */
export const increasedFields: { readonly [K in TariffKind]: Readonly<Record<IncreaseScope<K>, IncreasedFields>> } = {
  tariffs: {
    costOnly: { tariff: ['baseCost'], details: ['cost'] },
    allCharges: { tariff: callTariffPrices, details: moneyFields(tariffDetails) },
  },
  fixedFeeTariffs: {
    recurringOnly: { tariff: [], details: ['serviceCharge'] },
    recurringAndConnections: { tariff: [], details: ['serviceCharge', 'connectionCharge'] },
  },
}

/** The fields `scope` raises on a tariff of `kind` (a scope of another kind raises nothing). */
export const fieldsOf = (kind: TariffKind, scope: IncreaseScope): IncreasedFields =>
  (increasedFields[kind] as Readonly<Record<string, IncreasedFields>>)[scope] ?? { tariff: [], details: [] }

// A catalogue rename must not silently turn a scope into a no-op: every field named above is
// a number or currency field of its resource (checked once, when the module loads).
const resourcesOf = { tariffs: [tariffs, tariffDetails], fixedFeeTariffs: [fixedFeeTariffs, fixedFeeTariffDetails] } as const
for (const kind of Object.keys(tariffKinds) as TariffKind[]) {
  const [tariff, details] = resourcesOf[kind]
  for (const fields of Object.values<IncreasedFields>(increasedFields[kind])) {
    assertPrices(tariff, fields.tariff)
    assertPrices(details, fields.details)
  }
}

function assertPrices(resource: Resource, names: readonly string[]): void {
  for (const name of names) {
    const type = resource.byName.get(name)?.type
    if (type !== 'number' && type !== 'currency') throw new Error(`${resource.name}.${name} is not a price field`)
  }
}
