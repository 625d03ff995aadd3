/**
 * One field of a resource, described once. Validation, response shaping, database columns,
 * presets discovery, the OpenAPI document and the TypeScript types of entities and inputs
 * (`entity.ts`) are all derived from these descriptions.
 */
export const wireTypes = [
  'id',       // positive integer, a string on the wire
  'text',
  'number',   // JSON number (finite)
  'currency', // exact to 4 decimals
  'date',     // YYYY-MM-DD
  'datetime', // system stamp
  'boolean',
  'preset',   // a configured name
  'presets',  // array of configured names
  'json',     // a JSON value the platform writes (a history entry's changes, an event's data); never from a request
] as const
export type WireType = (typeof wireTypes)[number]

/** Which resource a preset field names, when its allowed values are that resource's names. */
export type FieldRef = 'tariffs' | 'fixedFeeTariffs'

/** Which resource an ID field (or a text field holding an ID) names a row of. */
export type IdRef = 'customers' | FieldRef

/**
 * A field. `N` and `T` keep its name and wire type as literal types, so that the catalogue's
 * descriptions also give each resource a precise TypeScript type.
 */
export interface Field<N extends string = string, T extends WireType = WireType> {
  readonly name: N
  readonly type: T
  /** Preset list the allowed values come from (preset and presets fields). */
  readonly list?: string
  /**
   * The names the engine knows and branches on (a billing run's status, a charge interval): a
   * configured list may narrow them, never add to them, and the field's type is their union.
   * On a field without a list they are the allowed values themselves.
   */
  readonly values?: readonly string[]
  /** Allowed values are the names of rows of this resource, not a configured list. */
  readonly ref?: FieldRef
  /**
   * The value is the ID of a row of this resource (a tariff's `customerID`, `parentTariff`): a write
   * that sets it checks the row exists (contract 4); null or blank text names none.
   */
  readonly idRef?: IdRef
  /** Clients may not change it: a different value on update is refused, the same value ignored. */
  readonly readOnly?: boolean
  /** Read-only, but may be given on create (status, statusReason). */
  readonly createOnly?: boolean
  /** Accepted in requests, never returned (stored hashed). */
  readonly writeOnly?: boolean
  readonly unique?: boolean
  /** Unique together with the field named, not alone (a payment's reference, per provider): indexed as a pair. */
  readonly uniqueWith?: string
  /** Must be given (not null) on create; for an action parameter, in the body. */
  readonly required?: boolean
  /** Not stored in the resource's own row; computed when the resource is read (balance). */
  readonly computed?: boolean
  /** Stored with the resource but never on the wire, in either direction (a hashed PIN). */
  readonly internal?: boolean
  /** Kept equal to the digits of another field (spaces and dashes removed), for searching. */
  readonly digitsOf?: string
  /** Kept equal to the rater's canonical form of another number field (core/rating/phone-number.ts), so an import looks numbers up by an index. */
  readonly matchKeyOf?: string
  /** Kept equal to the portal sign-in key of another field (core/portal/portal-login.ts `loginKey`), so sign-in looks it up by an index. */
  readonly loginKeyOf?: { readonly field: string; readonly kind: 'email' | 'account' }
  /** Not from billing-api.md: an extension the contract adds. */
  readonly extension?: boolean
  readonly description?: string
  /** Longest text accepted; by default MAX_KEY_LENGTH for a unique field (alone or with another), else 10,000. */
  readonly maxLength?: number
  /** Shortest text accepted (a password: 1, since an empty one would let anyone in); by default 0. */
  readonly minLength?: number
  /** A text in this form (an action's UUID parameter). */
  readonly format?: 'uuid'
  /** A number that must be a whole number of at least this (a feature count: 0). */
  readonly wholeFrom?: number
  /**
   * A number the engine reads as an amount of money (a rate, a charge): at most this many decimal
   * places, the places amounts are held to (contract 9.1), so none is rounded unseen when rated. A
   * markup's percentage stays any number: rounding it to 4 places moves no price by a penny.
   */
  readonly decimals?: 4
}

/**
 * Longest text of a field an index holds (unique fields, the numbers searched by their digits):
 * a Postgres index entry must stay under about 2.7 kB.
 */
export const MAX_KEY_LENGTH = 200

export type FieldOptions = Omit<Field, 'name' | 'type'>

/** A field whose options are kept as literal types (`readOnly: true`, `values: [...]`). */
export type FieldOf<N extends string, T extends WireType, O extends FieldOptions> = Field<N, T> & O

export const field = <const N extends string, const T extends WireType, const O extends FieldOptions = {}>(
  name: N,
  type: T,
  options?: O,
): FieldOf<N, T, O> => ({ name, type, ...(options as O) })

export const text = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) => field(name, 'text', o)
export const num = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) => field(name, 'number', o)
/** A `Number` field the engine reads as an amount of money (`decimals`): a rate or a charge. */
export const amountNum = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) =>
  field(name, 'number', { decimals: 4, ...(o as O) })
export const currency = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) => field(name, 'currency', o)
export const date = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) => field(name, 'date', o)
export const ref = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) => field(name, 'id', o)
export const stamp = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) =>
  field(name, 'datetime', { readOnly: true, extension: true, ...(o as O) })
export const flag = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) =>
  field(name, 'boolean', { readOnly: true, extension: true, ...(o as O) })
export const preset = <const N extends string, const O extends FieldOptions = {}>(name: N, list: string, o?: O) =>
  field(name, 'preset', { list, ...(o as O) })
export const presets = <const N extends string, const O extends FieldOptions = {}>(name: N, list: string, o?: O) =>
  field(name, 'presets', { list, ...(o as O) })
export const tariffRef = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) =>
  field(name, 'preset', { ref: 'tariffs', ...(o as O) })
export const fixedFeeTariffRef = <const N extends string, const O extends FieldOptions = {}>(name: N, o?: O) =>
  field(name, 'preset', { ref: 'fixedFeeTariffs', ...(o as O) })

/** The whole numbers `0..N`, as a union type (`Upto<3>` is 0 | 1 | 2 | 3). */
type Upto<N extends number, Acc extends number[] = [0]> = Acc['length'] extends N ? [...Acc, N][number] : Upto<N, [...Acc, Acc['length']]>
/** The whole numbers `From..To`. */
export type Between<From extends number, To extends number> = Exclude<Upto<To>, Exclude<Upto<From>, From>>

/**
 * Expands `address1..5` style groups: each(1, 5, (i) => text(`address${i}`)). The second argument
 * is the suffix that leaves the first one bare (`CDRNumber`, `CDRNumber2`, ...). Names keep
 * their literal types (`address1` | ... | `address5`), so `address6` is no field of the type.
 */
export function each<const From extends number, const To extends number, F>(
  from: From,
  to: To,
  make: (i: Between<From, To>, suffix: '' | `${Exclude<Between<From, To>, 1>}`) => F,
): F[] {
  const out: F[] = []
  for (let i: number = from; i <= to; i++) out.push(make(i as Between<From, To>, (i === 1 ? '' : `${i}`) as '' | `${Exclude<Between<From, To>, 1>}`))
  return out
}
