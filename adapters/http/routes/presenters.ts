import type { WireItem } from '../../../core/ports/resource-repository.js'
import { expandWireItems, type ExpandedOf, type ExpandingLevel } from '../../../core/resources/expansions.js'
import { arrayPieces, withMemberPieces, type Pieces } from '../json-pieces.js'
import type { Present } from './resource-routes.js'

/**
 * Adds `numbers`, `services` and `features` arrays to the items of a page, as the request's
 * expansion flags ask (one query per level for the whole page).
 */
export function expandingPresenter(level: ExpandingLevel): Present {
  return async (items, request, ctx) => {
    const expanded = await expandWireItems(ctx.platform.store, level, items, request?.flags ?? new Set<string>())
    return expanded.map(expandedPieces)
  }
}

/** An expanded item's JSON: the item's own, with its children's arrays added. */
function expandedPieces(expanded: ExpandedOf<WireItem>): Pieces {
  const members: [string, Pieces][] = []
  if (expanded.numbers) members.push(['numbers', arrayPieces(expanded.numbers.map(expandedPieces))])
  if (expanded.services) members.push(['services', arrayPieces(expanded.services.map(expandedPieces))])
  if (expanded.features) members.push(['features', arrayPieces(expanded.features.map((f) => [f.json]))])
  return withMemberPieces(expanded.item.json, members)
}
