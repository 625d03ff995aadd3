import type { ParsedAction } from './action-params.js'
import { dropChanges, reinstateChanges, type StateChanges } from './apply-action.js'
import { ancestorKeys, itemKey, type ItemKey, type Level } from './levels.js'
import type { LifecycleNode } from './state.js'
import type { IgnoreTrafficEntry } from '../ports/lifecycle-log.js'

/** The changes to write on one item. */
export interface ItemChange {
  readonly level: Level
  readonly id: string
  readonly changes: StateChanges
}

export interface CascadePlan {
  /** Changes on descendants only (the root's own come from `applyAction`), numbers and services before features. */
  readonly changes: readonly ItemChange[]
  /** Entries for the root number, or for every number a customer drop takes. */
  readonly ignoreTraffic: readonly IgnoreTrafficEntry[]
  /**
   * The numbers a reinstate brings back (the root number, or those a customer's reinstate
   * returns): their ignore-traffic entries end on its date, so their traffic is billed again.
   */
  readonly ignoreTrafficEnded: readonly string[]
}

/** Whether `node` is a number, service or feature under `root`. */
export function isDescendantOf(root: LifecycleNode, node: LifecycleNode): boolean {
  if (node.level === 'customers') return false
  return ancestorKeys(node.level, node).includes(itemKey(root.level, root.id))
}

const order: Readonly<Record<Level, number>> = { customers: 0, numbers: 1, services: 1, features: 2 }

/**
 * The cascade of contract 5.3, as a plan. Drop: every descendant not already dropped is dropped,
 * marked `droppedBy` the root. Reinstate: every descendant whose `droppedBy` is the root comes back,
 * and for a customer with `dateReinstateNumbersFeatures` also those dropped on their own on that
 * date; transitively, what a returning number or service had dropped comes back with it. An item
 * comes back only when its number or service is active afterwards, so nothing is ever active
 * under a dropped ancestor. Other actions do not cascade (billing looks up ancestors, 5.4).
 * `descendants` may hold other items; only the root's are considered.
 */
export function planCascade(p: ParsedAction, root: LifecycleNode, descendants: readonly LifecycleNode[]): CascadePlan {
  const below = descendants
    .filter((n) => isDescendantOf(root, n))
    .sort((a, b) => order[a.level] - order[b.level])
  const rootKey = itemKey(root.level, root.id)
  if (p.action === 'drop') {
    const taken = below.filter((n) => !n.state.isDropped)
    const changes = taken.map((n) => ({ level: n.level, id: n.id, changes: dropChanges(p, n, rootKey) }))
    const numbers = root.level === 'numbers' ? [root] : taken.filter((n) => n.level === 'numbers')
    const type = p.ignoreTrafficNumberType
    const ignoreTraffic = type
      ? numbers.map((n) => ({ numberID: n.id, number: n.number ?? null, type, fromDate: p.date }))
      : []
    return { changes, ignoreTraffic, ignoreTrafficEnded: [] }
  }
  if (p.action === 'reinstate') {
    const back = reinstated(p, root, rootKey, below)
    const returning = below.filter((n) => back.has(itemKey(n.level, n.id)))
    // The customer leaves final bill with this reinstate: its features were charged through its final-bill date at most.
    const finalBill = root.level === 'customers' ? (root.finalBillDate ?? null) : null
    const changes = returning.map((n) => ({ level: n.level, id: n.id, changes: reinstateChanges(p, n, finalBill) }))
    const numbers = root.level === 'numbers' ? [root] : returning.filter((n) => n.level === 'numbers')
    return { changes, ignoreTraffic: [], ignoreTrafficEnded: numbers.map((n) => n.id) }
  }
  return { changes: [], ignoreTraffic: [], ignoreTrafficEnded: [] }
}

/** The keys that come back, the root's included, grown to a fixpoint. */
function reinstated(p: ParsedAction, root: LifecycleNode, rootKey: ItemKey, below: readonly LifecycleNode[]) {
  const byKey = new Map(below.map((n) => [itemKey(n.level, n.id), n]))
  const back = new Set<ItemKey>([rootKey])
  const sameDay = root.level === 'customers' ? p.dateReinstateNumbersFeatures : null
  const activeAfter = (key: ItemKey) => back.has(key) || byKey.get(key)?.state.isDropped !== true
  const candidates = below.filter((n) => n.state.isDropped)
  for (let grew = true; grew; ) {
    grew = false
    for (const n of candidates) {
      const key = itemKey(n.level, n.id)
      if (back.has(key)) continue
      const { droppedBy, updatedDate } = n.state
      const wanted = droppedBy !== null ? back.has(droppedBy) : sameDay !== null && updatedDate === sameDay
      // its number or service (the customer is the root or already checked) must be active afterwards
      const parentsActive = ancestorKeys(n.level, n).every(activeAfter)
      if (wanted && parentsActive) {
        back.add(key)
        grew = true
      }
    }
  }
  return back
}
