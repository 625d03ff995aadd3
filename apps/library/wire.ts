import { catalogue } from '../../core/fields/catalogue.js'
import type { ShownOf, WireOf } from '../../core/fields/entity.js'
import type { Item } from '../../core/fields/item.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import { expandedToWire, type Expanded } from '../../core/resources/expansions.js'
import { toErrorParts } from '../../adapters/http/error-response.js'

const resources: ReadonlyMap<ResourceName, Resource> = new Map(Object.entries(catalogue) as [ResourceName, Resource][])

/** The children an expanded item of the level may carry, as JSON (`?expandNumbers`, `?expandFeatures`, ...). */
type WireChildren<N extends ResourceName> = N extends 'customers'
  ? { readonly numbers?: WireExpanded<'numbers'>[]; readonly services?: WireExpanded<'services'>[]; readonly features?: WireOf<'features'>[] }
  : N extends 'numbers' | 'services'
    ? { readonly features?: WireOf<'features'>[] }
    : {}

/** An item of collection `N` as the API's JSON gives it, with the children an expansion added. */
export type WireExpanded<N extends ResourceName> = WireOf<N> & WireChildren<N>

/**
 * An item (or an expanded item from a list's `expanded`) as the API returns it: every field
 * present, unset ones null, money as JSON numbers, write-only fields null, internal ones absent.
 * Typed by the collection: an item of another collection fails to compile.
 */
export function toWire<N extends ResourceName>(collection: N, value: ShownOf<N> | Expanded): WireExpanded<N> {
  if (!resources.has(collection)) throw new Error(`no collection ${collection}`)
  const expanded: Expanded = 'id' in value ? { item: value as Item } : (value as Expanded)
  return expandedToWire(resources, collection, expanded) as WireExpanded<N>
}

/**
 * The contract's numeric `error_code` of a failure, as the HTTP API would answer it: 400101 for
 * `invalid_field`, 404001 for `not_found`, ...; 500000 for anything unexpected.
 */
export function errorCodeOf(error: unknown): number {
  return toErrorParts(error).body.error_code
}
