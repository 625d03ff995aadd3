import type { Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { toWire } from '../fields/wire.js'
import { toWireJson, withMembers } from '../fields/wire-json.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'

/** Expansion flags each level accepts (billing-api.md, contract 6). */
export const expansionFlags = {
  customers: ['expandNumbers', 'expandServices', 'expandFeatures', 'numberActive', 'serviceActive', 'featureActive'],
  numbers: ['expandFeatures', 'featureActive'],
  services: ['expandFeatures', 'featureActive'],
} as const

/** The levels whose lists and fetches can expand their children. */
export type ExpandingLevel = keyof typeof expansionFlags

/** An item with the children its expansion flags asked for. */
export interface Expanded {
  readonly item: Item
  /** The customer's numbers (expandNumbers), each with its features when expandFeatures is given. */
  readonly numbers?: readonly Expanded[]
  /** The customer's services (expandServices), each with its features when expandFeatures is given. */
  readonly services?: readonly Expanded[]
  /** The item's own features (expandFeatures). */
  readonly features?: readonly Item[]
}

const active: Condition = { op: 'eq', column: 'isDropped', value: false }

/**
 * Adds the children the flags ask for to the items of a page. Each level is one query for the
 * whole page (no query per item).
 */
export async function expandItems(store: Store, level: ExpandingLevel, items: readonly Item[], flags: ReadonlySet<string>): Promise<Expanded[]> {
  if (items.length === 0) return []
  const featureWhere = flags.has('featureActive') ? [active] : []
  const withFeatures = async (kind: 'numbers' | 'services', parents: readonly Item[]) => {
    const column = kind === 'numbers' ? 'numberID' : 'serviceID'
    const features = flags.has('expandFeatures')
      ? groupBy(await store.repository('features').listIn(column, parents.map((p) => p.id), featureWhere), column)
      : null
    return (item: Item): Expanded => (features ? { item, features: features.get(item.id) ?? [] } : { item })
  }
  if (level !== 'customers') return items.map(await withFeatures(level, items))
  const ids = items.map((i) => i.id)
  const out: { item: Item; numbers?: Expanded[]; services?: Expanded[]; features?: Item[] }[] = items.map((item) => ({ item }))
  for (const kind of ['numbers', 'services'] as const) {
    if (!flags.has(kind === 'numbers' ? 'expandNumbers' : 'expandServices')) continue
    const where = flags.has(kind === 'numbers' ? 'numberActive' : 'serviceActive') ? [active] : []
    const children = await store.repository(kind).listIn('customerID', ids, where)
    const present = await withFeatures(kind, children)
    const byParent = groupBy(children, 'customerID')
    for (const o of out) o[kind] = (byParent.get(o.item.id) ?? []).map(present)
  }
  if (flags.has('expandFeatures')) {
    const own = await ownFeatures(store, ids, featureWhere)
    for (const o of out) o.features = own.get(o.item.id) ?? []
  }
  return out
}

/** An expanded item as the API returns it: the item's fields, then `numbers`, `services`, `features`. */
export function expandedToWire(resources: ReadonlyMap<ResourceName, Resource>, level: ResourceName, expanded: Expanded): Record<string, unknown> {
  const out = toWire(resources.get(level)!, expanded.item)
  if (expanded.numbers) out.numbers = expanded.numbers.map((n) => expandedToWire(resources, 'numbers', n))
  if (expanded.services) out.services = expanded.services.map((s) => expandedToWire(resources, 'services', s))
  if (expanded.features) out.features = expanded.features.map((f) => toWire(resources.get('features')!, f))
  return out
}

/** `JSON.stringify(expandedToWire(...))`, written straight from the items (see toWireJson). */
export function expandedToWireJson(resources: ReadonlyMap<ResourceName, Resource>, level: ResourceName, expanded: Expanded): string {
  const members: [string, string][] = []
  const list = (texts: string[]) => `[${texts.join(',')}]`
  if (expanded.numbers) members.push(['numbers', list(expanded.numbers.map((n) => expandedToWireJson(resources, 'numbers', n)))])
  if (expanded.services) members.push(['services', list(expanded.services.map((s) => expandedToWireJson(resources, 'services', s)))])
  if (expanded.features) members.push(['features', list(expanded.features.map((f) => toWireJson(resources.get('features')!, f)))])
  return withMembers(toWireJson(resources.get(level)!, expanded.item), members)
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
