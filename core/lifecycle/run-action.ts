import { notFound } from '../errors.js'
import type { Customer } from '../fields/entity.js'
import type { Item } from '../fields/item.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'
import type { ParsedAction } from './action-params.js'
import type { Level } from './levels.js'
import { performParsedAction } from './perform-action.js'
import { toLifecycleNode, type LifecycleNode } from './state.js'

const singular: Record<Level, string> = { customers: 'customer', numbers: 'number', services: 'service', features: 'feature' }


/**
 * Runs a lifecycle action and its cascade in the caller's transaction (`store`). The customer
 * row is locked first, so actions anywhere in one customer's tree run one after another and a
 * child can never be left active under a dropped parent. What follows from the new state (the
 * charges past a new bill-to date) is the caller's: see billing's `runLifecycleAction`.
 */
export async function applyLifecycleAction(store: Store, id: string, parsed: ParsedAction): Promise<{ readonly customerID: string }> {
  const { level, action } = parsed
  const repo = store.repository(level)
  const peek = await repo.get(id)
  if (!peek) throw notFound(singular[level], id)
  const customerID = level === 'customers' ? id : toLifecycleNode(level, peek).customerID
  const customer = customerID ? await store.repository('customers').getForUpdate(customerID) : undefined
  if (!customerID || !customer) throw notFound('customer', customerID ?? `of ${singular[level]} ${id}`)
  const item = level === 'customers' ? customer : (await repo.getForUpdate(id))!
  const node = toLifecycleNode(level, item)
  const outcome = performParsedAction(parsed, {
    item: node,
    ancestors: await ancestorsOf(store, node, customer),
    descendants: action === 'drop' || action === 'reinstate' ? await descendantsOf(store, node) : [],
  })
  for (const change of outcome.changes) {
    await store.repository(change.level).update(change.id, { ...change.changes })
  }
  await store.lifecycle.append(outcome.events.map((e) => ({ ...e, customerID })))
  await store.lifecycle.addIgnoreTraffic(outcome.ignoreTraffic.map((e) => ({ ...e, customerID })))
  return { customerID }
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

/** Everything a drop or reinstate of the node may cascade to. */
async function descendantsOf(store: Store, node: LifecycleNode): Promise<LifecycleNode[]> {
  const by = (column: string): Condition[] => [{ op: 'eq', column, value: node.id }]
  const load = async (level: 'numbers' | 'services' | 'features', where: Condition[]) =>
    (await store.repository(level).list({ where, limit: Number.MAX_SAFE_INTEGER })).map((row: Item) => toLifecycleNode(level, row))
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
