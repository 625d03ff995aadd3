import { generatedFunction } from '../codegen/generated-function.js'
import type { Field } from './field.js'
import type { Item } from './item.js'
import type { Resource } from './resource.js'
import { wireConversions } from './wire-conversions.js'

const writers = new WeakMap<Resource, (item: Item) => Record<string, unknown>>()

/**
 * A resource as the API returns it: every field present in catalogue order, unset ones null,
 * unset lists [], write-only ones null, internal ones left out (conversions: wire-conversions.ts).
 * The function is written out per resource as one object literal: building the object key by
 * key costs a shape change per field, and a loop with a type test per field showed in a GET's
 * CPU time (bench/get-customer.ts; figures in bench/RESULTS.md).
 */
export function toWire(resource: Resource, item: Item): Record<string, unknown> {
  let write = writers.get(resource)
  if (!write) writers.set(resource, (write = compileWriter(resource.fields)))
  return write(item)
}

/** The generated code's names for each type's conversion. */
const scope = Object.fromEntries(Object.entries(wireConversions).map(([type, c]) => [`to_${type}`, c.toWire]))

function compileWriter(fields: readonly Field[]): (item: Item) => Record<string, unknown> {
  const shown = fields.filter((f) => !f.internal)
  const parts = shown.map((f) => {
    const key = JSON.stringify(f.name)
    if (f.writeOnly) return `${key}: null`
    const c = wireConversions[f.type]
    const value = c.toWire ? `to_${f.type}(v)` : 'v'
    return `${key}: (v = item[${key}]) === null || v === undefined ? ${c.unset} : ${value}`
  })
  return generatedFunction({
    name: 'toWire',
    params: ['item'],
    body: `let v; return {${parts.join(',\n')}}`,
    scope,
    fallback: (item: Item) => {
      const out: Record<string, unknown> = {}
      for (const f of shown) out[f.name] = wireValue(f, item[f.name])
      return out
    },
  })
}

/** One field's wire value, as the generated writer computes it. */
function wireValue(f: Field, v: unknown): unknown {
  if (f.writeOnly) return null
  const c = wireConversions[f.type]
  if (v === null || v === undefined) return c.unset === '[]' ? [] : null
  return c.toWire ? c.toWire(v as never) : v
}
