import type { WireItem } from '../../../core/ports/list-json.js'
import { expandWireItems, type ExpandedOf, type ExpandingLevel } from '../../../core/resources/expansions.js'
import { listExpandedWirePage } from '../../../core/resources/list-page.js'
import { arrayPieces, withMemberPieces, type Pieces } from '../json-pieces.js'
import type { Present } from './resource-routes.js'

/**
 * Adds `numbers`, `services` and `features` arrays to items, as the request's expansion flags
 * ask (one query per level for the whole page, read beside the page itself).
 */
export function expandingPresenter(level: ExpandingLevel): Present {
  return {
    async list(ctx, resource, params, spec) {
      const { items, hasMore, request } = await listExpandedWirePage(ctx.platform, resource, params, spec)
      return { bodies: items.map(expandedPieces), lastId: items.at(-1)?.item.id, hasMore, request }
    },
    async one(item, request, ctx) {
      const [expanded] = await expandWireItems(ctx.platform.store, level, [item], request?.flags ?? new Set<string>())
      return expandedPieces(expanded)
    },
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
