import type { Item } from '../fields/item.js'
import type { Resource, ResourceName } from '../fields/resource.js'
import { recordChanges, type Change } from '../history/record-change.js'
import type { Clock } from '../ports/clock.js'
import type { Store } from '../ports/store.js'
import type { LifecycleAction } from './actions.js'
import { levels } from './levels.js'
import type { CascadedItem } from './run-action.js'

/** IDs read per query, well under every dialect's parameter limit. */
const CHUNK = 1000

/**
 * Records each item a cascade changed as its own action (contract 12): a history entry named for
 * the action (`drop`, `reinstate`) with the fields that changed (`status`, `isDropped`,
 * `billToDate`, and the ledger figures its rebill moved), and its event (`number.dropped`,
 * `feature.reinstated`), in the caller's transaction. Read once the action is done, in one query
 * per level, and appended together: a customer's drop may take thousands of features.
 */
export async function recordCascade(
  ctx: { readonly clock: Clock; readonly resources: ReadonlyMap<ResourceName, Resource> },
  store: Store,
  action: LifecycleAction,
  cascaded: readonly CascadedItem[],
): Promise<void> {
  if (cascaded.length === 0) return
  const changes: Change[] = []
  for (const level of levels) {
    const befores = cascaded.filter((c) => c.level === level).map((c) => c.before)
    if (befores.length === 0) continue
    const afters = new Map<string, Item>()
    for (let at = 0; at < befores.length; at += CHUNK) {
      for (const a of await store.repository(level).listIn('id', befores.slice(at, at + CHUNK).map((b) => b.id))) afters.set(a.id, a)
    }
    const resource = ctx.resources.get(level)!
    for (const before of befores) changes.push({ resource, action, before, after: afters.get(before.id) ?? null })
  }
  await recordChanges(store, ctx.clock, changes)
}
