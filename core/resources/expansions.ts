import type { Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { toWire } from '../fields/wire.js'
import type { Condition, Parents } from '../ports/resource-repository.js'
import type { WireItem } from '../ports/list-json.js'
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

/** The column of a feature that names the number or service it hangs on. */
const featureColumn = { numbers: 'numberID', services: 'serviceID' } as const

/** How an expansion reads children: `column` of each is one of the parents' IDs. */
interface Children<T> {
  read(kind: 'numbers' | 'services' | 'features', column: string, parents: Parents, where: Condition[]): Promise<T[]>
  id(child: T): string
  /** The value of the column the child was read by. */
  parent(child: T, column: string): string
}

const items = (store: Store): Children<Item> => ({
  read: (kind, column, parents, where) => store.repository(kind).listIn(column, parents, where),
  id: (i) => i.id,
  parent: (i, column) => i[column] as string,
})

const wireItems = (store: Store): Children<WireItem> => ({
  read: (kind, column, parents, where) => store.listJson.listIn(kind, column, parents, where),
  id: (w) => w.id,
  parent: (w) => w.key as string,
})

/**
 * Adds the children the flags ask for to the items of a page. Each level is one query for the
 * whole page (no query per item), and the levels are read at the same time.
 */
export async function expandItems(store: Store, level: ExpandingLevel, page: readonly Item[], flags: ReadonlySet<string>): Promise<Expanded[]> {
  if (page.length === 0) return []
  return (await expand(items(store), level, page.map((i) => i.id), flags))(page)
}

/** `expandItems` on the JSON texts the API answers with: what HTTP reads. */
export async function expandWireItems(store: Store, level: ExpandingLevel, page: readonly WireItem[], flags: ReadonlySet<string>): Promise<ExpandedOf<WireItem>[]> {
  if (page.length === 0) return []
  return (await expand(wireItems(store), level, page.map((i) => i.id), flags))(page)
}

/**
 * Reads the children the flags ask for of the wire items `parents` finds, and answers how to
 * attach them to those items. Given the query of a page, the reads can run beside the page's.
 */
export function wireChildren(store: Store, level: ExpandingLevel, parents: Parents, flags: ReadonlySet<string>): Promise<(page: readonly WireItem[]) => ExpandedOf<WireItem>[]> {
  return expand(wireItems(store), level, parents, flags)
}

export const isExpandingLevel = (name: string): name is ExpandingLevel => Object.hasOwn(expansionFlags, name)

/**
 * Reads the children of `parents` (items of `level`) that the flags ask for, all at once, and
 * answers how to attach them to those items.
 */
async function expand<T>(children: Children<T>, level: ExpandingLevel, parents: Parents, flags: ReadonlySet<string>): Promise<(page: readonly T[]) => ExpandedOf<T>[]> {
  const featureWhere = flags.has('featureActive') ? [active] : []
  const expandFeatures = flags.has('expandFeatures')
  const read = async (kind: 'numbers' | 'services' | 'features', column: string, from: Parents, where: Condition[]) =>
    groupBy(children, await children.read(kind, column, from, where), column)
  // A number or service with its own features when they were read.
  const withOwn = (features: Map<string, T[]> | null) => (item: T): ExpandedOf<T> =>
    features ? { item, features: features.get(children.id(item)) ?? [] } : { item }
  if (level !== 'customers') {
    const features = expandFeatures ? await read('features', featureColumn[level], parents, featureWhere) : null
    return (page) => page.map(withOwn(features))
  }
  // Each kind of child with its own features: the features are found through the children's query.
  const withFeatures = async (kind: 'numbers' | 'services') => {
    const where = flags.has(kind === 'numbers' ? 'numberActive' : 'serviceActive') ? [active] : []
    const [found, features] = await Promise.all([
      read(kind, 'customerID', parents, where),
      expandFeatures ? read('features', featureColumn[kind], { resource: kind, where, column: 'customerID', parents }, featureWhere) : null,
    ])
    const present = withOwn(features)
    return (customerID: string): ExpandedOf<T>[] => (found.get(customerID) ?? []).map(present)
  }
  const [numbers, services, own] = await Promise.all([
    flags.has('expandNumbers') ? withFeatures('numbers') : null,
    flags.has('expandServices') ? withFeatures('services') : null,
    // Features attached to the customers themselves (not to one of their numbers or services).
    expandFeatures
      ? read('features', 'customerID', parents, [
          ...featureWhere,
          { op: 'isNull', column: 'numberID', value: true },
          { op: 'isNull', column: 'serviceID', value: true },
        ])
      : null,
  ])
  return (page) =>
    page.map((item) => {
      const id = children.id(item)
      return {
        item,
        ...(numbers && { numbers: numbers(id) }),
        ...(services && { services: services(id) }),
        ...(own && { features: own.get(id) ?? [] }),
      }
    })
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
