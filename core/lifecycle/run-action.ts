import { notFound } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'
import type { PlatformContext } from '../platform.js'
import type { Level } from './levels.js'
import { performAction } from './perform-action.js'
import { rebillFeatures } from '../billing/rebill.js'
import { toLifecycleNode, type LifecycleNode } from './state.js'

const singular: Record<Level, string> = { customers: 'customer', numbers: 'number', services: 'service', features: 'feature' }

/**
 * Runs a lifecycle action and its cascade in one transaction. The customer row is locked
 * first, so actions anywhere in one customer's tree run one after another and a child can
 * never be left active under a dropped parent.
 */
export async function runLifecycleAction(ctx: PlatformContext, level: Level, id: string, action: string, body: unknown): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const repo = store.repository(level)
    const peek = await repo.get(id)
    if (!peek) throw notFound(singular[level], id)
    const customerID = level === 'customers' ? id : (peek.customerID as string)
    const customer = await store.repository('customers').getForUpdate(customerID)
    if (!customer) throw notFound('customer', customerID)
    const item = level === 'customers' ? customer : (await repo.getForUpdate(id))!
    const node = toLifecycleNode(level, item)
    const outcome = performAction(
      {
        action,
        body,
        item: node,
        ancestors: await ancestorsOf(store, level, item, customer),
        descendants: action === 'drop' || action === 'reinstate' ? await descendantsOf(store, node) : [],
      },
      ctx.presets,
      ctx.clock,
    )
    for (const change of outcome.changes) {
      await store.repository(change.level).update(change.id, { ...change.changes } as Values)
    }
    await store.lifecycle.append(outcome.events.map((e) => ({ ...e, customerID })))
    await store.lifecycle.addIgnoreTraffic(outcome.ignoreTraffic.map((e) => ({ ...e, customerID })))
    if (action === 'drop' || action === 'reinstate' || action === 'finalBill') {
      // Bill-to dates moved: charges past them go (or are refunded), and come back on reinstate.
      const freshCustomer = (await store.repository('customers').get(customerID))!
      await rebillFeatures(ctx, store, await featuresUnder(store, level, id), freshCustomer)
    }
    return (await repo.get(id))!
  })
}

async function ancestorsOf(store: Store, level: Level, item: Item, customer: Item): Promise<LifecycleNode[]> {
  if (level === 'customers') return []
  const out = [toLifecycleNode('customers', customer)]
  if (level === 'features') {
    for (const [parent, column] of [
      ['numbers', 'numberID'],
      ['services', 'serviceID'],
    ] as const) {
      const parentID = item[column] as string | null
      const row = parentID ? await store.repository(parent).getForUpdate(parentID) : undefined
      if (row) out.unshift(toLifecycleNode(parent, row))
    }
  }
  return out
}

/** The features an action on the item can change the billing of. */
async function featuresUnder(store: Store, level: Level, id: string): Promise<Item[]> {
  const column = { customers: 'customerID', numbers: 'numberID', services: 'serviceID', features: 'id' }[level]
  return store.repository('features').list({ where: [{ op: 'eq', column, value: id }], limit: Number.MAX_SAFE_INTEGER })
}

/** Everything a drop or reinstate of the node may cascade to. */
async function descendantsOf(store: Store, node: LifecycleNode): Promise<LifecycleNode[]> {
  const by = (column: string): Condition[] => [{ op: 'eq', column, value: node.id }]
  const load = async (level: 'numbers' | 'services' | 'features', where: Condition[]) =>
    (await store.repository(level).list({ where, limit: Number.MAX_SAFE_INTEGER })).map((row) => toLifecycleNode(level, row))
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
