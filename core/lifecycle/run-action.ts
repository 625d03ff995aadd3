import { notFound } from '../errors.js'
import type { Customer } from '../fields/entity.js'
import type { Item } from '../fields/item.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'
import type { ParsedAction } from './action-params.js'
import type { StateChanges } from './apply-action.js'
import type { ItemChange } from './cascade.js'
import { itemKey, type Level } from './levels.js'
import { performParsedAction } from './perform-action.js'
import { toLifecycleNode, type LifecycleNode } from './state.js'

const singular: Record<Level, string> = { customers: 'customer', numbers: 'number', services: 'service', features: 'feature' }


/** An item a cascade changed, as it was before: its history entry and event are the caller's (`recordCascade`). */
export interface CascadedItem {
  readonly level: Level
  readonly before: Item
}

/** What an action changed besides its own item. */
export interface AppliedAction {
  readonly customerID: string
  /** The numbers, services and features the cascade changed, as they were before it. */
  readonly cascaded: readonly CascadedItem[]
}

/**
 * Runs a lifecycle action and its cascade in the caller's transaction (`store`). The customer
 * row is locked first, so actions anywhere in one customer's tree (and creates under it:
 * `lockOwners`) run one after another and a child can never be left active under a dropped
 * parent; then a feature's number or service, then the item: parents before children. What
 * follows from the new state (the charges past a new bill-to date, the cascade's history) is the
 * caller's: see billing's `runLifecycleAction`.
 */
export async function applyLifecycleAction(store: Store, id: string, parsed: ParsedAction): Promise<AppliedAction> {
  const { level, action } = parsed
  const repo = store.repository(level)
  const peek = await repo.get(id)
  if (!peek) throw notFound(singular[level], id)
  const customerID = level === 'customers' ? id : toLifecycleNode(level, peek).customerID
  const customer = customerID ? await store.repository('customers').getForUpdate(customerID) : undefined
  if (!customerID || !customer) throw notFound('customer', customerID ?? `of ${singular[level]} ${id}`)
  // Parents before children: a feature's number or service before the feature, as a delete of a
  // number or service takes it before its features. The owner IDs are read-only, so the peek's hold.
  const ancestors = await ancestorsOf(store, toLifecycleNode(level, peek), customer)
  // Deleted since the peek (a delete that held its lock first): gone, as if never found.
  const item = level === 'customers' ? customer : await repo.getForUpdate(id)
  if (!item) throw notFound(singular[level], id)
  const node = toLifecycleNode(level, item)
  const rows = action === 'drop' || action === 'reinstate' ? await descendantsOf(store, node) : []
  const outcome = performParsedAction(parsed, { item: node, ancestors, descendants: rows.map((r) => r.node) })
  await writeChanges(store, outcome.changes)
  await store.lifecycle.append(outcome.events.map((e) => ({ ...e, customerID })))
  await store.lifecycle.addIgnoreTraffic(outcome.ignoreTraffic.map((e) => ({ ...e, customerID })))
  await store.lifecycle.endIgnoreTraffic(outcome.ignoreTrafficEnded, parsed.date)
  const byKey = new Map(rows.map((r) => [itemKey(r.node.level, r.node.id), r.row]))
  const cascaded = outcome.changes.slice(1).map((c) => ({ level: c.level, before: byKey.get(itemKey(c.level, c.id))! }))
  return { customerID, cascaded }
}

/** IDs per update statement, well under every dialect's parameter limit. */
const CHUNK = 1000

/**
 * Writes the changes, one statement for each set of equal changes on one level: a cascade's are
 * the same on nearly every item (a feature's bill-to date may differ), and a customer may have
 * thousands of features.
 */
async function writeChanges(store: Store, changes: readonly ItemChange[]): Promise<void> {
  const groups = new Map<string, { level: Level; changes: StateChanges; ids: string[] }>()
  for (const c of changes) {
    const key = `${c.level} ${JSON.stringify(c.changes)}`
    const group = groups.get(key)
    if (group) group.ids.push(c.id)
    else groups.set(key, { level: c.level, changes: c.changes, ids: [c.id] })
  }
  for (const { level, changes, ids } of groups.values()) {
    const repo = store.repository(level)
    if (ids.length === 1) await repo.update(ids[0], { ...changes })
    else for (let at = 0; at < ids.length; at += CHUNK) await repo.updateWhere([{ op: 'in', column: 'id', values: ids.slice(at, at + CHUNK) }], { ...changes })
  }
}

async function ancestorsOf(store: Store, node: LifecycleNode, customer: Customer): Promise<LifecycleNode[]> {
  if (node.level === 'customers') return []
  const out = [toLifecycleNode('customers', customer)]
  if (node.numberID) {
    const row = await store.repository('numbers').getForUpdate(node.numberID)
    if (row) out.unshift(toLifecycleNode('numbers', row))
  }
  if (node.serviceID) {
    const row = await store.repository('services').getForUpdate(node.serviceID)
    if (row) out.unshift(toLifecycleNode('services', row))
  }
  return out
}

/** Everything a drop or reinstate of the node may cascade to, each with its row as read. */
async function descendantsOf(store: Store, node: LifecycleNode): Promise<{ node: LifecycleNode; row: Item }[]> {
  const by = (column: string): Condition[] => [{ op: 'eq', column, value: node.id }]
  const load = async (level: 'numbers' | 'services' | 'features', where: Condition[]) =>
    (await store.repository(level).list({ where, limit: Number.MAX_SAFE_INTEGER })).map((row: Item) => ({ node: toLifecycleNode(level, row), row }))
  switch (node.level) {
    case 'customers':
      return [...(await load('numbers', by('customerID'))), ...(await load('services', by('customerID'))), ...(await load('features', by('customerID')))]
    case 'numbers':
      return load('features', by('numberID'))
    case 'services':
      return load('features', by('serviceID'))
    default:
      return []
  }
}
