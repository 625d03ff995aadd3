import { catalogue } from '../../core/fields/catalogue.js'
import type { Item } from '../../core/fields/item.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import { expandedToWire, type Expanded } from '../../core/resources/expansions.js'
import { toErrorParts } from '../../adapters/http/error-response.js'

const resources: ReadonlyMap<ResourceName, Resource> = new Map(Object.entries(catalogue) as [ResourceName, Resource][])

/**
 * An item (or an expanded item from a list's `expanded`) as the API returns it: every field
 * present, unset ones null, money as JSON numbers, write-only fields null, internal ones absent.
 */
export function toWire(collection: ResourceName, value: Item | Expanded): Record<string, unknown> {
  if (!resources.has(collection)) throw new Error(`no collection ${collection}`)
  return expandedToWire(resources, collection, 'id' in value ? { item: value } : value)
}

/**
 * The contract's numeric `error_code` of a failure, as the HTTP API would answer it: 400101 for
 * `invalid_field`, 404001 for `not_found`, ...; 500000 for anything unexpected.
 */
export function errorCodeOf(error: unknown): number {
  return toErrorParts(error).body.error_code
}
