import type { Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { toWire } from '../fields/wire.js'
import type { Condition, WireItem } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'

/** Expansion flags each level accepts (billing-api.md, contract 6). */
export const expansionFlags = {
  customers: ['expandNumbers', 'expandServices', 'expandFeatures', 'numberActive', 'serviceActive', 'featureActive'],
  numbers: ['expandFeatures', 'featureActive'],
  services: ['expandFeatures', 'featureActive'],
} as const

/** The levels whose lists and fetches can expand their children. */
export type ExpandingLevel = keyof typeof expansionFlags

/** An item with the children its expansion flags asked for (items, or their wire texts). */
export interface ExpandedOf<T> {
  readonly item: T
  /** The customer's numbers (expandNumbers), each with its features when expandFeatures is given. */
  readonly numbers?: readonly ExpandedOf<T>[]
  /** The customer's services (expandServices), each with its features when expandFeatures is given. */
  readonly services?: readonly ExpandedOf<T>[]
  /** The item's own features (expandFeatures). */
  readonly features?: readonly T[]
}

export type Expanded = ExpandedOf<Item>

const active: Condition = { op: 'eq', column: 'isDropped', value: false }

/** How an expansion reads children: `column` of each is one of `ids`. */
interface Children<T> {
  read(kind: 'numbers' | 'services' | 'features', column: string, ids: readonly string[], where: Condition[]): Promise<T[]>
  id(child: T): string
  /** The value of the column the child was read by. */
  parent(child: T, column: string): string
}

const items = (store: Store): Children<Item> => ({
  read: (kind, column, ids, where) => store.repository(kind).listIn(column, ids, where),
  id: (i) => i.id,
  parent: (i, column) => i[column] as string,
})

const wireItems = (store: Store): Children<WireItem> => ({
  read: (kind, column, ids, where) => store.repository(kind).listInWire(column, ids, where),
  id: (w) => w.id,
  parent: (w) => w.key as string,
})

/**
 * Adds the children the flags ask for to the items of a page. Each level is one query for the
 * whole page (no query per item).
 */
export function expandItems(store: Store, level: ExpandingLevel, page: readonly Item[], flags: ReadonlySet<string>): Promise<Expanded[]> {
  return expand(items(store), level, page, flags)
}

/** `expandItems` on the JSON texts the API answers with: what HTTP reads. */
export function expandWireItems(store: Store, level: ExpandingLevel, page: readonly WireItem[], flags: ReadonlySet<string>): Promise<ExpandedOf<WireItem>[]> {
  return expand(wireItems(store), level, page, flags)
}

async function expand<T>(children: Children<T>, level: ExpandingLevel, page: readonly T[], flags: ReadonlySet<string>): Promise<ExpandedOf<T>[]> {
  if (page.length === 0) return []
  const featureWhere = flags.has('featureActive') ? [active] : []
  const withFeatures = async (kind: 'numbers' | 'services', parents: readonly T[]) => {
    const column = kind === 'numbers' ? 'numberID' : 'serviceID'
    const features = flags.has('expandFeatures')
      ? groupBy(children, await children.read('features', column, parents.map(children.id), featureWhere), column)
      : null
    return (item: T): ExpandedOf<T> => (features ? { item, features: features.get(children.id(item)) ?? [] } : { item })
  }
  if (level !== 'customers') return page.map(await withFeatures(level, page))
  const ids = page.map(children.id)
  const out: { item: T; numbers?: ExpandedOf<T>[]; services?: ExpandedOf<T>[]; features?: T[] }[] = page.map((item) => ({ item }))
  for (const kind of ['numbers', 'services'] as const) {
    if (!flags.has(kind === 'numbers' ? 'expandNumbers' : 'expandServices')) continue
    const where = flags.has(kind === 'numbers' ? 'numberActive' : 'serviceActive') ? [active] : []
    const found = await children.read(kind, 'customerID', ids, where)
    const present = await withFeatures(kind, found)
    const byParent = groupBy(children, found, 'customerID')
    for (const o of out) o[kind] = (byParent.get(children.id(o.item)) ?? []).map(present)
  }
  if (flags.has('expandFeatures')) {
    // Features attached to the customers themselves (not to one of their numbers or services).
    const own = await children.read('features', 'customerID', ids, [
      ...featureWhere,
      { op: 'isNull', column: 'numberID', value: true },
      { op: 'isNull', column: 'serviceID', value: true },
    ])
    const byCustomer = groupBy(children, own, 'customerID')
    for (const o of out) o.features = byCustomer.get(children.id(o.item)) ?? []
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


function groupBy<T>(children: Children<T>, found: readonly T[], column: string): Map<string, T[]> {
  const map = new Map<string, T[]>()
  for (const child of found) {
    const key = children.parent(child, column)
    const list = map.get(key)
    if (list) list.push(child)
    else map.set(key, [child])
  }
  return map
}
