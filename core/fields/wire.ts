import { moneyToNumber, type Money } from '../money/money.js'
import type { Item } from './item.js'
import type { Resource } from './resource.js'

/** A resource as the API returns it: every field present, unset ones null, unset lists []. */
export function toWire(resource: Resource, item: Item): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of resource.fields) {
    if (f.internal) continue
    const value = item[f.name]
    if (f.writeOnly) out[f.name] = null
    else if (value === undefined || value === null) out[f.name] = f.type === 'presets' ? [] : null
    else if (f.type === 'currency') out[f.name] = moneyToNumber(value as Money)
    else out[f.name] = value
  }
  return out
}
