import { generatedFunction } from '../codegen/generated-function.js'
import { moneyToNumber, type Money } from '../money/money.js'
import type { Field } from './field.js'
import type { Item } from './item.js'
import type { Resource } from './resource.js'

const writers = new WeakMap<Resource, (item: Item) => string>()

/**
 * `JSON.stringify(toWire(resource, item))`, written straight from the item. A page of 1000
 * customers with their numbers is hundreds of thousands of keys, and building the wire objects
 * and then having JSON.stringify walk them was much of the request (bench/lists.ts; figures in
 * bench/RESULTS.md);
 * here each resource gets a function that knows its keys and the type of each value.
 * tests/core/wire-json.test.ts holds the two equal over random items.
 */
export function toWireJson(resource: Resource, item: Item): string {
  let write = writers.get(resource)
  if (!write) writers.set(resource, (write = compileJsonWriter(resource.fields)))
  return write(item)
}

function compileJsonWriter(fields: readonly Field[]): (item: Item) => string {
  const shown = fields.filter((f) => !f.internal)
  const parts = shown.map((f, i) => {
    const key = `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`
    if (f.writeOnly) return JSON.stringify(`${key}null`)
    const unset = f.type === 'presets' ? '[]' : 'null'
    const value = f.type === 'currency' ? 'num(money(v))' : 'any(v)'
    return `${JSON.stringify(key)} + ((v = item[${JSON.stringify(f.name)}]) === null || v === undefined ? ${JSON.stringify(unset)} : ${value})`
  })
  return generatedFunction({
    name: 'toWireJson',
    params: ['item'],
    body: shown.length ? `let v; return ${parts.join(' +\n')} + '}'` : `return '{}'`,
    scope: { money: moneyToNumber, num: jsonNumber, any: jsonValue },
    fallback: (item: Item) => {
      let out = ''
      shown.forEach((f, i) => {
        const v = item[f.name]
        const value = f.writeOnly ? 'null' : v === null || v === undefined ? (f.type === 'presets' ? '[]' : 'null') : f.type === 'currency' ? jsonNumber(moneyToNumber(v as Money)) : jsonValue(v)
        out += `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:${value}`
      })
      return shown.length ? `${out}}` : '{}'
    },
  })
}

/** Characters a JSON string cannot hold as they are (and lone surrogates, which JSON.stringify escapes). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

function jsonValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`
    case 'number':
      return jsonNumber(v)
    case 'boolean':
      return v ? 'true' : 'false'
    default:
      return JSON.stringify(v) ?? 'null'
  }
}

const jsonNumber = (n: number): string => (Number.isFinite(n) ? String(n) : 'null')
