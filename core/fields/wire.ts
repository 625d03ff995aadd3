import { generatedFunction } from '../codegen/generated-function.js'
import { moneyToNumber, type Money } from '../money/money.js'
import type { Field } from './field.js'
import type { Item } from './item.js'
import type { Resource } from './resource.js'

const writers = new WeakMap<Resource, (item: Item) => Record<string, unknown>>()

/**
 * A resource as the API returns it: every field present in catalogue order, unset ones null,
 * unset lists [], write-only ones null, internal ones left out. The function is written out per
 * resource as one object literal: building the object key by key costs a shape change per
 * field, and a loop with a type test per field showed in a GET's CPU time
 * (bench/get-customer.ts; figures in bench/RESULTS.md).
 */
export function toWire(resource: Resource, item: Item): Record<string, unknown> {
  let write = writers.get(resource)
  if (!write) writers.set(resource, (write = compileWriter(resource.fields)))
  return write(item)
}

function compileWriter(fields: readonly Field[]): (item: Item) => Record<string, unknown> {
  const shown = fields.filter((f) => !f.internal)
  const parts = shown.map((f) => {
    const key = JSON.stringify(f.name)
    if (f.writeOnly) return `${key}: null`
    const unset = f.type === 'presets' ? '[]' : 'null'
    const value = f.type === 'currency' ? 'money(v)' : 'v'
    return `${key}: (v = item[${key}]) === null || v === undefined ? ${unset} : ${value}`
  })
  return generatedFunction({
    name: 'toWire',
    params: ['item'],
    body: `let v; return {${parts.join(',\n')}}`,
    scope: { money: moneyToNumber },
    fallback: (item: Item) => {
      const out: Record<string, unknown> = {}
      for (const f of shown) out[f.name] = wireValue(f, item[f.name])
      return out
    },
  })
}

function wireValue(f: Field, v: unknown): unknown {
  if (f.writeOnly) return null
  if (v === null || v === undefined) return f.type === 'presets' ? [] : null
  return f.type === 'currency' ? moneyToNumber(v as Money) : v
}
