import type { Field } from '../fields/field.js'
import type { FieldValue, Item, Values } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { sameValue } from '../input/validate.js'

/**
 * The values of an update that change the item: one equal to what is stored (money and numbers by
 * value, name lists by content, a cleared flag as the false it is stored as) is left out, so a
 * PATCH that changes nothing, with the same values or a GET body sent back, is no update (contract 2:
 * GET → edit → PATCH round-trips; 12: history and events for the fields that changed). A write-only
 * secret given is always a change: only its hash is stored, and nothing compares with that.
 */
export function changedValues(resource: Resource, values: Values, current: Item): Values {
  const changed: Values = {}
  for (const [name, value] of Object.entries(values)) {
    const field = resource.byName.get(name)
    if (!field || field.writeOnly || !storedSame(field, value, current[name])) changed[name] = value
  }
  return changed
}

/** Whether `value` stores as `stored` reads back: a boolean's column is NOT NULL, null stores false. */
const storedSame = (field: Field, value: FieldValue, stored: FieldValue | undefined): boolean =>
  field.type === 'boolean' ? (value ?? false) === (stored ?? false) : sameValue(value, stored)
