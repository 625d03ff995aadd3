import { moneyToNumber, type Money } from '../money/money.js'
import type { WireType } from './field.js'

/** How a decoded value of one wire type is written on the API's JSON. */
export interface WireConversion {
  /** The JSON an unset value (null, or no value) is written as. */
  readonly unset: 'null' | '[]'
  /** The decoded value's wire value; null: the value as it is (text, numbers, booleans, lists). */
  readonly toWire: ((value: never) => unknown) | null
  /** The JSON text of a set wire value. */
  readonly json: (value: unknown) => string
}

/**
 * The API's wire format, once per wire type. Every renderer is derived from this table:
 * `toWire` (objects) and `toWireJson` (text) generate their code from it, and the SQL that writes
 * list pages' JSON in the database (adapters/persistence/list-json) keys its conversions by the
 * same types and takes `unset` from here, so a new type fails to compile until every renderer
 * knows it. Write-only fields are null and internal ones absent whatever their type.
 */
export const wireConversions: { readonly [T in WireType]: WireConversion } = {
  id: { unset: 'null', toWire: null, json: jsonValue },
  text: { unset: 'null', toWire: null, json: jsonValue },
  number: { unset: 'null', toWire: null, json: jsonValue },
  currency: { unset: 'null', toWire: (v: Money) => moneyToNumber(v), json: jsonValue },
  date: { unset: 'null', toWire: null, json: jsonValue },
  datetime: { unset: 'null', toWire: null, json: jsonValue },
  boolean: { unset: 'null', toWire: null, json: jsonValue },
  preset: { unset: 'null', toWire: null, json: jsonValue },
  presets: { unset: '[]', toWire: null, json: jsonValue },
  json: { unset: 'null', toWire: null, json: jsonValue },
}

/** Characters a JSON string cannot hold as they are (and lone surrogates, which JSON.stringify escapes). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/** `JSON.stringify(v)`, with the common cases (plain strings, numbers) written without it. */
function jsonValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`
    case 'number':
      // JSON has no NaN or infinities: JSON.stringify writes them as null.
      return Number.isFinite(v) ? String(v) : 'null'
    case 'boolean':
      return v ? 'true' : 'false'
    default:
      return JSON.stringify(v) ?? 'null'
  }
}
