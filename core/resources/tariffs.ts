import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { pendingAfterPatch } from '../tariffs/rebase-pending.js'
import { holdNamedTariffs } from './reference-checks.js'
import { updateItem, type ResourceContext } from './resources.js'

/**
 * Updating a tariff; a new name is carried to every customer, number, service and feature naming
 * it, and a call tariff's pending increase follows its changed prices (`pendingAfterPatch`).
 */
export async function updateTariff(ctx: ResourceContext, resource: Resource, id: string, body: unknown): Promise<Item> {
  const kind = resource.name as 'tariffs' | 'fixedFeeTariffs'
  return ctx.store.transaction(async (store) => {
    // A new parent is checked for a cycle by walking the parent's ancestors, unlocked: two writes
    // making tariffs each other's parent at once would each find no cycle (SQLite's single writer
    // is safe), and on Postgres each held its own tariff and then waited for the other's. Writes of
    // a parent take turns, before any row is locked; other writes of the kind do not wait for them.
    if (namesParent(resource, body)) await store.lock(`tariff-parents:${kind}`)
    // The tariffs it names, then the tariff, then its users: every write takes tariffs before the
    // items that name them (holdNamedTariffs), as a detail's write takes the tariff and then the
    // features it prices. A write naming the old name meanwhile either committed (its item is
    // renamed below) or waits and then finds the name gone.
    await holdNamedTariffs(store, ctx.validator, resource, body)
    const before = await store.repository(resource.name).getForUpdate(id)
    const name = nameIn(body)
    if (before && typeof before.name === 'string' && name !== undefined && before.name !== name) await store.lockReferences(kind, before.name)
    const after = await updateItem({ ...ctx, store }, resource, id, body, { held: true })
    const pendingIncrease = before ? pendingAfterPatch(before, after, ctx.clock.today()) : undefined
    // An internal field, so the update's history entry is the same with it or without it.
    if (pendingIncrease !== undefined) await store.repository(resource.name).update(id, { pendingIncrease })
    if (before && typeof before.name === 'string' && typeof after.name === 'string' && before.name !== after.name) {
      await store.renameReferences(kind, before.name, after.name)
    }
    return after
  })
}

/** Whether a request body sets the tariff's parent (to anything but null: clearing one makes no cycle). */
function namesParent(resource: Resource, body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false
  return resource.fields.some((f) => f.idRef === resource.name && (body as Record<string, unknown>)[f.name] != null)
}

/** The name a request body gives (a rename, once validated), or undefined. */
const nameIn = (body: unknown): unknown => (typeof body === 'object' && body !== null && 'name' in body ? (body as { name: unknown }).name : undefined)
