import { expandedWireJson, expandWireItems, type ExpandingLevel } from '../../../core/resources/expansions.js'
import type { Present } from './resource-routes.js'

/**
 * Adds `numbers`, `services` and `features` arrays to the items of a page, as the request's
 * expansion flags ask (one query per level for the whole page).
 */
export function expandingPresenter(level: ExpandingLevel): Present {
  return async (items, request, ctx) => {
    const expanded = await expandWireItems(ctx.platform.store, level, items, request?.flags ?? new Set<string>())
    return expanded.map(expandedWireJson)
  }
}
