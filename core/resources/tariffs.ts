import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import { updateItem, type ResourceContext } from './resources.js'

/** Updating a tariff; a new name is carried to every customer, number, service and feature naming it. */
export async function updateTariff(ctx: ResourceContext, resource: Resource, id: string, body: unknown): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const before = await store.repository(resource.name).getForUpdate(id)
    const after = await updateItem({ ...ctx, store }, resource, id, body)
    if (before && typeof before.name === 'string' && typeof after.name === 'string' && before.name !== after.name) {
      await store.renameReferences(resource.name as 'tariffs' | 'fixedFeeTariffs', before.name, after.name)
    }
    return after
  })
}
