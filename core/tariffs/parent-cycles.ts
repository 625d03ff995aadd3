import { BillingError } from '../errors.js'
import type { Item, Values } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import type { Store } from '../ports/store.js'

/** The field naming the tariff each kind of tariff is based upon (contract 17.7). */
const parentFields: Readonly<Record<string, string>> = { tariffs: 'parentTariff', fixedFeeTariffs: 'parentFixedFeeTariff' }

/**
 * Refuses a write of a tariff's parent that would make a cycle (the tariff its own ancestor):
 * prices would have no nearest ancestor to come from. A new tariff has no descendants yet.
 */
export async function checkParentCycle(store: Store, resource: Resource, values: Values, current: Item | null): Promise<void> {
  const field = parentFields[resource.name]
  if (!field || !current || !(field in values)) return
  const repo = store.repository(resource.name)
  const seen = new Set<string>()
  let at = idOf(values[field])
  while (at !== null && !seen.has(at)) {
    if (at === current.id) {
      throw new BillingError(
        'invalid_field',
        `Field "${field}" of ${resource.singular} would make it its own ancestor`,
        `Name a ${resource.singular} that is not based upon this one.`,
      )
    }
    seen.add(at)
    const row = await repo.get(at)
    at = row ? idOf(row[field]) : null
  }
}

const idOf = (v: unknown): string | null => {
  const s = v === null || v === undefined ? '' : String(v).trim()
  // IDs are digits: anything else names no tariff, so no chain goes on from it.
  return /^\d+$/.test(s) ? s : null
}
