import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { pendingAfterPatch } from '../tariffs/rebase-pending.js'
import { updateItem, type ResourceContext } from './resources.js'

/**
 * Updating a tariff; a new name is carried to every customer, number, service and feature naming
 * it, and a call tariff's pending increase follows its changed prices (`pendingAfterPatch`).
 */
export async function updateTariff(ctx: ResourceContext, resource: Resource, id: string, body: unknown): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const before = await store.repository(resource.name).getForUpdate(id)
    const after = await updateItem({ ...ctx, store }, resource, id, body)
    const pendingIncrease = before ? pendingAfterPatch(before, after, ctx.clock.today()) : undefined
    // An internal field, so the update's history entry is the same with it or without it.
    if (pendingIncrease !== undefined) await store.repository(resource.name).update(id, { pendingIncrease })
    if (before && typeof before.name === 'string' && typeof after.name === 'string' && before.name !== after.name) {
      await store.renameReferences(resource.name as 'tariffs' | 'fixedFeeTariffs', before.name, after.name)
    }
    return after
  })
}
