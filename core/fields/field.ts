/**
 * One field of a resource, described once. Validation, response shaping, database columns,
 * presets discovery and the OpenAPI document are all derived from these descriptions.
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
] as const
export type WireType = (typeof wireTypes)[number]

/** Which resource a preset field names, when its allowed values are that resource's names. */
export type FieldRef = 'tariffs' | 'fixedFeeTariffs'

export interface Field {
  readonly name: string
  readonly type: WireType
  /** Preset list the allowed values come from (preset and presets fields). */
  readonly list?: string
  /** Allowed values are the names of rows of this resource, not a configured list. */
  readonly ref?: FieldRef
  /** Clients may not change it: a different value on update is refused, the same value ignored. */
  readonly readOnly?: boolean
  /** Read-only, but may be given on create (status, statusReason). */
  readonly createOnly?: boolean
  /** Accepted in requests, never returned (stored hashed). */
  readonly writeOnly?: boolean
  readonly unique?: boolean
  /** Must be given (not null) on create. */
  readonly required?: boolean
  /** Not stored in the resource's own row; computed when the resource is read (balance). */
  readonly computed?: boolean
  /** Stored with the resource but never on the wire, in either direction (a hashed PIN). */
  readonly internal?: boolean
  /** Kept equal to the digits of another field (spaces and dashes removed), for searching. */
  readonly digitsOf?: string
  /** Not from billing-api.md: an extension the contract adds. */
  readonly extension?: boolean
  readonly description?: string
  /** Longest text accepted; by default MAX_KEY_LENGTH for a unique field, else 10,000. */
  readonly maxLength?: number
}

/**
 * Longest text of a field an index holds (unique fields, the numbers searched by their digits):
 * a Postgres index entry must stay under about 2.7 kB.
 */
export const MAX_KEY_LENGTH = 200

type Options = Omit<Field, 'name' | 'type'>

export const field = (name: string, type: WireType, options: Options = {}): Field => ({ name, type, ...options })
export const text = (name: string, o: Options = {}) => field(name, 'text', o)
export const num = (name: string, o: Options = {}) => field(name, 'number', o)
export const currency = (name: string, o: Options = {}) => field(name, 'currency', o)
export const date = (name: string, o: Options = {}) => field(name, 'date', o)
export const stamp = (name: string, o: Options = {}) => field(name, 'datetime', { readOnly: true, extension: true, ...o })
export const flag = (name: string, o: Options = {}) => field(name, 'boolean', { readOnly: true, extension: true, ...o })
export const ref = (name: string, o: Options = {}) => field(name, 'id', o)
export const preset = (name: string, list: string, o: Options = {}) => field(name, 'preset', { list, ...o })
export const presets = (name: string, list: string, o: Options = {}) => field(name, 'presets', { list, ...o })
export const tariffRef = (name: string, o: Options = {}) => field(name, 'preset', { ref: 'tariffs', ...o })
export const fixedFeeTariffRef = (name: string, o: Options = {}) =>
  field(name, 'preset', { ref: 'fixedFeeTariffs', ...o })

/** Expands `address1..5` style groups: each(1, 5, i => text(`address${i}`)). */
export function each(from: number, to: number, make: (i: number, suffix: string) => Field): Field[] {
  const out: Field[] = []
  for (let i = from; i <= to; i++) out.push(make(i, i === 1 ? '' : String(i)))
  return out
}
