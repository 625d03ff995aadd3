import type { DateOnly } from '../dates/date-only.js'
import type { Stamp } from '../dates/stamp.js'
import type { Money } from '../money/money.js'
import type { catalogue } from './catalogue.js'
import type { Field } from './field.js'
import type { Item, JsonValue, Values } from './item.js'
import type { Resource, ResourceName } from './resource.js'

/**
 * The TypeScript types of the resources, derived from the catalogue's descriptions (no field is
 * written out again here): a field's name and wire type give its member and type, `values` a
 * union of names, `required` a member that is never null. Core, the ports and the library all
 * read them, so a misspelt field or status name fails to compile.
 */

/** A value of each wire type in domain form (exact money, branded dates), as the store holds it. */
interface DomainTypes {
  id: string
  text: string
  number: number
  currency: Money
  date: DateOnly
  datetime: Stamp
  boolean: boolean
  preset: string
  presets: readonly string[]
  json: JsonValue
}

/** A value of each wire type as a request may give it (contract 2, Wire types). */
interface InputTypes {
  id: string | number
  text: string
  number: number
  /** Exact to 4 decimal places: a JSON number, or a decimal string such as "12.50". */
  currency: number | string
  /** `YYYY-MM-DD`. */
  date: string
  datetime: string
  boolean: boolean
  preset: string
  presets: readonly string[]
  json: unknown
}

/** The fields of a resource, as a union of their literal types. */
export type FieldsOf<R> = R extends Resource<ResourceName, infer F> ? F : never

/** The names of a collection's list filters, as literals. */
export type FilterNameOf<N extends ResourceName> = (typeof catalogue)[N] extends Resource<ResourceName, Field, infer Q> ? Q : never

/** The names a field's `values` fix, or never. */
type Named<F> = F extends { readonly values: readonly (infer V extends string)[] } ? V : never

/** A field's value in the form `Types` gives its wire type, narrowed to its `values` when it has them. */
type ValueIn<Types extends Record<Field['type'], unknown>, F extends Field> = [Named<F>] extends [never]
  ? Types[F['type']]
  : F['type'] extends 'presets'
    ? readonly Named<F>[]
    : Named<F>

/** Whether a field's stored value may be null (every field but the ID and required ones). */
type Nullable<F> = F extends { readonly name: 'id' } | { readonly required: true } ? never : null

/** A stored row of the resource in domain form: every field, internal ones included. */
export type EntityOf<R extends Resource> = {
  readonly [F in FieldsOf<R> as F['name']]: ValueIn<DomainTypes, F> | Nullable<F>
}

/** The stored rows of every resource, by collection name. */
export type Entities = { [N in ResourceName]: EntityOf<(typeof catalogue)[N]> }

/** Whether `T` is a union of several types. */
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never

/**
 * The stored row of a collection. For several collections at once (code that serves whichever
 * resource it is given at run time) it is the untyped `Item`.
 */
export type Entity<N extends ResourceName> = true extends IsUnion<N> ? Item : Entities[N]

/** Values to write to a row of the entity type `E`: any of its fields but the ID (null clears). */
export type ValuesOf<E> = string extends keyof E ? Values : { -readonly [K in Exclude<keyof E, 'id'>]?: E[K] }

/** What clients see of a field: not internal, not write-only (a hash is never shown). */
type Shown<F> = F extends { readonly internal: true } | { readonly writeOnly: true } ? never : F

/** An item as the library answers it: its shown fields in domain form (money as exact `Money`). */
export type ShownOf<N extends ResourceName> = {
  readonly [F in Shown<FieldsOf<(typeof catalogue)[N]>> as F['name']]: ValueIn<DomainTypes, F> | Nullable<F>
}

/** A value of each wire type as the API's JSON answers it (contract 2, Wire types). */
interface WireTypes {
  id: string
  text: string
  number: number
  /** A JSON number: 12.5 for 12.50. */
  currency: number
  /** `YYYY-MM-DD`. */
  date: string
  datetime: string
  boolean: boolean
  preset: string
  presets: readonly string[]
  json: JsonValue
}

/** What JSON gives for an unset field: [] for a list, null for the rest. */
type WireUnset<F> = F extends { readonly type: 'presets' } ? never : Nullable<F>

/** An item as the API's JSON answers it (`toWire`): every field not internal, write-only ones null. */
export type WireOf<N extends ResourceName> = {
  readonly [F in FieldsOf<(typeof catalogue)[N]> as F extends { readonly internal: true } ? never : F['name']]: F extends { readonly writeOnly: true }
    ? null
    : ValueIn<WireTypes, F> | WireUnset<F>
}

/** Fields a client may give: not internal or computed; read-only ones only when they may be set on create. */
type Writable<F> = F extends { readonly internal: true } | { readonly computed: true }
  ? never
  : F extends { readonly readOnly: true }
    ? F extends { readonly createOnly: true }
      ? F
      : never
    : F

/**
 * The body of a create, in the API's wire form: every field a client may give, null to leave
 * it unset; required ones must be there. Read-only fields the platform maintains are not part of
 * it (the API ignores them when unchanged).
 */
export type InputOf<N extends ResourceName> = {
  readonly [F in Writable<FieldsOf<(typeof catalogue)[N]>> as F extends { readonly required: true } ? F['name'] : never]: ValueIn<InputTypes, F>
} & {
  readonly [F in Writable<FieldsOf<(typeof catalogue)[N]>> as F extends { readonly required: true } ? never : F['name']]?: ValueIn<InputTypes, F> | null
}

/** The body of an update: any field of the create body (absent unchanged, null clears); `status` is set by actions. */
export type PatchOf<N extends ResourceName> = {
  readonly [F in Writable<FieldsOf<(typeof catalogue)[N]>> as F extends { readonly createOnly: true } ? never : F['name']]?:
    | ValueIn<InputTypes, F>
    | Nullable<F>
}

/** One object type of the members of `T` (an intersection), so editors and errors show the members. */
type Flat<T> = { [K in keyof T]: T[K] } & {}

/** The wire form of a list of action parameters (described as fields): required ones must be given. */
export type BodyOf<P extends readonly Field[]> = Flat<
  {
    readonly [F in P[number] as F extends { readonly required: true } ? F['name'] : never]: ValueIn<InputTypes, F>
  } & {
    readonly [F in P[number] as F extends { readonly required: true } ? never : F['name']]?: ValueIn<InputTypes, F> | null
  }
>

/** Action parameters once read: domain values, null when an optional one was not given. */
export type ParamsOf<P extends readonly Field[]> = {
  readonly [F in P[number] as F['name']]: ValueIn<DomainTypes, F> | (F extends { readonly required: true } ? never : null)
}

export type Customer = Entities['customers']
export type TelephoneNumber = Entities['numbers']
export type Service = Entities['services']
export type Feature = Entities['features']
export type CallTariff = Entities['tariffs']
export type FixedFeeTariff = Entities['fixedFeeTariffs']
export type CustomerContact = Entities['customerContacts']
export type CallTariffDetail = Entities['tariffDetails']
export type FixedFeeTariffDetail = Entities['fixedFeeTariffDetails']
export type Transaction = Entities['transactions']
export type BillingRun = Entities['billingRuns']
export type Invoice = Entities['invoices']
export type Call = Entities['calls']
export type UsageFile = Entities['usageFiles']
export type DisasterRecoveryFile = Entities['disasterRecoveryFiles']
