import type { Item } from '../../../core/fields/item.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import type { Store } from '../../../core/ports/store.js'
import type { Present } from './resource-routes.js'

/** Expansion flags each level accepts (billing-api.md, contract 6). */
export const expansionFlags = {
  customers: ['expandNumbers', 'expandServices', 'expandFeatures', 'numberActive', 'serviceActive', 'featureActive'],
  numbers: ['expandFeatures', 'featureActive'],
  services: ['expandFeatures', 'featureActive'],
} as const

const active: Condition = { op: 'eq', column: 'isDropped', value: false }

/**
 * Adds `numbers`, `services` and `features` arrays to the items of a page. Each level is one
 * query for the whole page (no query per item).
 */
export function expandingPresenter(level: 'customers' | 'numbers' | 'services', resources: (n: 'numbers' | 'services' | 'features') => Resource): Present {
  return async (items, request, ctx) => {
    const flags = request?.flags ?? new Set<string>()
    const out = items.map((i) => ({ wire: toWire(ctx.platform.resources.get(level)!, i), item: i }))
    if (items.length === 0) return []
    const store = ctx.platform.store
    const ids = items.map((i) => i.id)
    const featureWhere = flags.has('featureActive') ? [active] : []
    const withFeatures = async (kind: 'numbers' | 'services', parents: Item[]) => {
      const column = kind === 'numbers' ? 'numberID' : 'serviceID'
      const features = flags.has('expandFeatures') ? groupBy(await store.repository('features').listIn(column, parents.map((p) => p.id), featureWhere), column) : null
      return (p: Item) => ({
        ...toWire(resources(kind), p),
        ...(features ? { features: (features.get(p.id) ?? []).map((f) => toWire(resources('features'), f)) } : {}),
      })
    }
    if (level === 'customers') {
      for (const kind of ['numbers', 'services'] as const) {
        const flag = kind === 'numbers' ? 'expandNumbers' : 'expandServices'
        if (!flags.has(flag)) continue
        const where = flags.has(kind === 'numbers' ? 'numberActive' : 'serviceActive') ? [active] : []
        const children = await store.repository(kind).listIn('customerID', ids, where)
        const present = await withFeatures(kind, children)
        const byParent = groupBy(children, 'customerID')
        for (const o of out) o.wire[kind] = (byParent.get(o.item.id) ?? []).map(present)
      }
      if (flags.has('expandFeatures')) {
        const own = await ownFeatures(store, ids, featureWhere)
        for (const o of out) o.wire.features = (own.get(o.item.id) ?? []).map((f) => toWire(resources('features'), f))
      }
      return out.map((o) => o.wire)
    }
    const present = await withFeatures(level, items)
    return items.map(present)
  }
}

/** Features attached to the customers themselves (not to one of their numbers or services). */
async function ownFeatures(store: Store, customerIDs: string[], where: Condition[]) {
  const rows = await store.repository('features').listIn('customerID', customerIDs, [
    ...where,
    { op: 'isNull', column: 'numberID', value: true },
    { op: 'isNull', column: 'serviceID', value: true },
  ])
  return groupBy(rows, 'customerID')
}

function groupBy(items: Item[], column: string): Map<string, Item[]> {
  const map = new Map<string, Item[]>()
  for (const i of items) {
    const key = i[column] as string
    const list = map.get(key)
    if (list) list.push(i)
    else map.set(key, [i])
  }
  return map
}
