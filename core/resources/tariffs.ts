import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { pendingAfterPatch } from '../tariffs/rebase-pending.js'
import { updateItem, type ResourceContext } from './resources.js'

/**
 * Updating a tariff; a new name is carried to every customer, number, service and feature naming
 * it, and a call tariff's pending increase follows its changed prices (`pendingAfterPatch`).
 */
export async function updateTariff(ctx: ResourceContext, resource: Resource, id: string, body: unknown): Promise<Item> {
  const kind = resource.name as 'tariffs' | 'fixedFeeTariffs'
  return ctx.store.transaction(async (store) => {
    // A rename takes the tariff's users before the tariff: a write of a user holds the user and
    // then waits for the tariff it names (reference-checks.ts), so the other order could deadlock.
    const name = nameIn(body)
    const current = name === undefined ? undefined : (await store.repository(resource.name).get(id))?.name
    if (typeof current === 'string' && current !== name) await store.lockReferences(kind, current)
    // Locked before the users are renamed: a write naming the old name meanwhile either committed
    // (its item is renamed below) or waits and then finds the name gone.
    const before = await store.repository(resource.name).getForUpdate(id)
    const after = await updateItem({ ...ctx, store }, resource, id, body)
    const pendingIncrease = before ? pendingAfterPatch(before, after, ctx.clock.today()) : undefined
    // An internal field, so the update's history entry is the same with it or without it.
    if (pendingIncrease !== undefined) await store.repository(resource.name).update(id, { pendingIncrease })
    if (before && typeof before.name === 'string' && typeof after.name === 'string' && before.name !== after.name) {
      await store.renameReferences(kind, before.name, after.name)
    }
    return after
  })
}

/** The name a request body gives (a rename, once validated), or undefined. */
const nameIn = (body: unknown): unknown => (typeof body === 'object' && body !== null && 'name' in body ? (body as { name: unknown }).name : undefined)
