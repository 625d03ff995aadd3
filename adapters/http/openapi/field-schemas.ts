import type { Field } from '../../../core/fields/field.js'
import { maxTextLength } from '../../../core/input/validate.js'
import type { Presets } from '../../../core/presets/presets.js'

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown }

/**
 * How a field is used: in a response (the wire shape), or in a request body (create, update,
 * action parameters). Requests accept more forms (an amount as a decimal string, an ID as a
 * number) and `null` for anything that is not required.
 */
export type FieldUse = 'response' | 'request'

const ID_PATTERN = '^[1-9][0-9]{0,15}$'
const AMOUNT_PATTERN = '^-?[0-9]{1,15}(\\.[0-9]{1,4})?$'
const EXACT = 'An exact decimal amount with up to 4 decimal places, never rounded through binary floating point: read it as a decimal, and send it as a string to keep it exact.'
const tariffKind = { tariffs: 'call tariff', fixedFeeTariffs: 'fixed fee tariff' } as const

/** The JSON Schema of one field's value, from its wire type and, for presets, the configured list. */
export function fieldSchema(field: Field, presets: Presets, use: FieldUse): JsonSchema {
  const schema = { ...baseSchema(field, presets, use) }
  if (field.description) schema.description = field.description
  if (field.type === 'currency') schema.description = `${field.description ?? 'amount'}. ${EXACT}`
  if (use === 'response' && field.readOnly) schema.readOnly = true
  if (field.writeOnly) {
    schema.writeOnly = true
    // What a client cannot guess from `writeOnly`: sending back the null it read keeps the secret.
    schema.description = `${field.description ?? field.name}. Always null in responses; null in a request leaves it unchanged (a GET sent back keeps it), a new value replaces it`
  }
  // A response field is null when unset, except a list (`[]`), the ID and a required field; a
  // request may send null to clear anything that is not required (a write-only field's null is ignored).
  const nullable = use === 'response' ? (field.type !== 'presets' && field.name !== 'id' && !field.required) || !!field.writeOnly : !field.required
  return nullable ? withNull(schema) : schema
}

function baseSchema(field: Field, presets: Presets, use: FieldUse): JsonSchema {
  switch (field.type) {
    case 'id':
      return use === 'request'
        ? { type: ['string', 'integer'], pattern: ID_PATTERN, minimum: 1 }
        : { type: 'string', pattern: ID_PATTERN }
    case 'text':
      return field.format === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string', ...(field.minLength ? { minLength: field.minLength } : {}), maxLength: maxTextLength(field) }
    case 'number':
      if (field.decimals !== undefined) return { type: 'number', multipleOf: Number(`1e-${field.decimals}`) }
      return field.wholeFrom === undefined ? { type: 'number' } : { type: 'integer', minimum: field.wholeFrom }
    case 'currency':
      // Exact to 4 decimal places; a request may give the amount as a decimal string.
      return use === 'request'
        ? { type: ['number', 'string'], format: 'decimal', multipleOf: 0.0001, pattern: AMOUNT_PATTERN }
        : { type: 'number', format: 'decimal', multipleOf: 0.0001 }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'datetime':
      return { type: 'string', format: 'date-time' }
    case 'boolean':
      return { type: 'boolean' }
    case 'preset':
      return presetSchema(field, presets)
    case 'presets':
      return { type: 'array', items: presetSchema(field, presets) }
    case 'json':
      // Written by the platform: a history entry's changes, an event's resource, a delivery's attempts.
      return field.description ? { description: field.description } : {}
  }
}

/**
 * A configured name. A list the engine branches on (statuses, units, scopes) is closed: an enum
 * of the platform's list. Any other list is the operator's to extend with a presets file, so it
 * is a string with the configured names as examples: a client generated from one platform's
 * document must not refuse a name another platform adds. Tariff fields name an existing tariff.
 */
function presetSchema(field: Field, presets: Presets): JsonSchema {
  if (field.ref) {
    return { type: 'string', minLength: 1, maxLength: 200, 'x-names-of': field.ref, description: `name of an existing ${tariffKind[field.ref]}` }
  }
  const list = field.list ? presets.lists[field.list] : undefined
  if (list && field.values) return { type: 'string', enum: [...list], 'x-preset-list': field.list }
  if (list) return { type: 'string', minLength: 1, examples: [...list], 'x-preset-list': field.list }
  return field.values ? { type: 'string', enum: [...field.values] } : { type: 'string' }
}

/** Adds `null` to a schema's type (and to its enum, which would otherwise refuse it). */
export function withNull(schema: JsonSchema): JsonSchema {
  const out = { ...schema }
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null]
  if (typeof out.type === 'string') out.type = [out.type, 'null']
  else if (Array.isArray(out.type)) out.type = [...out.type, 'null']
  return out
}
