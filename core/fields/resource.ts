import type { Field } from './field.js'

export const resourceNames = [
  'customers',
  'numbers',
  'services',
  'features',
  'tariffs',
  'fixedFeeTariffs',
  'customerContacts',
  'tariffDetails',
  'fixedFeeTariffDetails',
  'transactions',
  'billingRuns',
  'invoices',
  'calls',
  'usageFiles',
  'disasterRecoveryFiles',
  'history',
  'events',
  'webhooks',
  'webhookDeliveries',
  'invoiceDeliveries',
  'paymentLinks',
  'creditNotes',
  'destinationTables',
  'destinations',
  'carrierBills',
  'carrierBillLines',
] as const
export type ResourceName = (typeof resourceNames)[number]

/** How a list filter of a collection selects rows. */
export type FilterKind =
  | { kind: 'equals'; column: string }
  | { kind: 'oneOf'; column: string; values: readonly string[] } // equals one of the engine's names (an invoice's status)
  | { kind: 'hasName'; column: string; values: readonly string[]; any: string } // a Preset Value(s) column holds the name (or, for `any`, some name)
  | { kind: 'digits'; column: string } // spaces and dashes ignored on both sides
  | { kind: 'flag'; column: string; value: boolean } // a flag parameter selecting column = value
  | { kind: 'since'; column: string }
  | { kind: 'value'; column: string; type: 'boolean' | 'date-from' | 'date-to' }

/** A list filter; `Q` is its name as a literal, so the library's list parameters are typed by it. */
export interface ListFilter<Q extends string = string> {
  readonly name: Q
  readonly filter: FilterKind
  readonly description: string
}

/**
 * A resource: `N` is its collection name, `F` the union of its fields' types, `Q` of its
 * filters' names and `T` its table's name, which `entity.ts` turns into the resource's
 * TypeScript types (and the persistence adapter into its table's row type).
 */
export interface Resource<N extends ResourceName = ResourceName, F extends Field = Field, Q extends string = string, T extends string = string> {
  readonly name: N
  /** Singular, for messages ("customer 12 does not exist"). */
  readonly singular: string
  readonly table: T
  readonly fields: readonly F[]
  readonly filters: readonly ListFilter<Q>[]
  readonly byName: ReadonlyMap<string, Field>
  /** Columns of the resource's own row (every field except computed ones). */
  readonly columns: readonly Field[]
}

export function defineResource<const N extends ResourceName, F extends Field, const Q extends string = never, const T extends string = string>(def: {
  name: N
  singular: string
  table: T
  fields: readonly F[]
  filters?: readonly ListFilter<Q>[]
}): Resource<N, F, Q, T> {
  const byName = new Map<string, Field>()
  for (const f of def.fields) {
    if (byName.has(f.name)) throw new Error(`${def.name}: field ${f.name} is described twice`)
    byName.set(f.name, f)
  }
  return {
    ...def,
    filters: def.filters ?? [],
    byName,
    columns: def.fields.filter((f) => !f.computed),
  }
}
