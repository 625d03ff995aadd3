import { generatedFunction } from '../codegen/generated-function.js'
import type { Field } from './field.js'
import type { Item } from './item.js'
import type { Resource } from './resource.js'
import { wireConversions } from './wire-conversions.js'

const writers = new WeakMap<Resource, (item: Item) => string>()

/**
 * `JSON.stringify(toWire(resource, item))`, written straight from the item: the API's one
 * renderer of an item's JSON (lists that the database writes take their SQL from the same
 * conversions, wire-conversions.ts). A page of 1000 customers with their numbers is hundreds of
 * thousands of keys, and building the wire objects and then having JSON.stringify walk them was
 * much of the request (bench/lists.ts; figures in bench/RESULTS.md); here each resource gets a
 * function that knows its keys and the type of each value. tests/core/wire-json.test.ts holds
 * the two equal over random items.
 */
export function toWireJson(resource: Resource, item: Item): string {
  let write = writers.get(resource)
  if (!write) writers.set(resource, (write = compileJsonWriter(resource.fields)))
  return write(item)
}

/** The generated code's names for each type's conversion and JSON writer. */
const scope = Object.fromEntries(
  Object.entries(wireConversions).flatMap(([type, c]) => [
    [`to_${type}`, c.toWire],
    [`json_${type}`, c.json],
  ]),
)

function compileJsonWriter(fields: readonly Field[]): (item: Item) => string {
  const shown = fields.filter((f) => !f.internal)
  const parts = shown.map((f, i) => {
    const key = `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`
    if (f.writeOnly) return JSON.stringify(`${key}null`)
    const c = wireConversions[f.type]
    const value = c.toWire ? `json_${f.type}(to_${f.type}(v))` : `json_${f.type}(v)`
    return `${JSON.stringify(key)} + ((v = item[${JSON.stringify(f.name)}]) === null || v === undefined ? ${JSON.stringify(c.unset)} : ${value})`
  })
  return generatedFunction({
    name: 'toWireJson',
    params: ['item'],
    body: shown.length ? `let v; return ${parts.join(' +\n')} + '}'` : `return '{}'`,
    scope,
    fallback: (item: Item) => {
      let out = ''
      shown.forEach((f, i) => {
        out += `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:${memberJson(f, item[f.name])}`
      })
      return shown.length ? `${out}}` : '{}'
    },
  })
}

function memberJson(f: Field, v: unknown): string {
  if (f.writeOnly) return 'null'
  const c = wireConversions[f.type]
  if (v === null || v === undefined) return c.unset
  return c.json(c.toWire ? c.toWire(v as never) : v)
}
