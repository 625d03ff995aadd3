import type { Item } from '../fields/item.js'
import type { Resource } from '../fields/resource.js'
import type { Condition } from '../ports/resource-repository.js'
import type { WireItem } from '../ports/list-json.js'
import { parseListRequest, type ListRequest, type RawParams } from './list-request.js'
import { listItems, listWireItems, pageQuery, trimPage, type ResourceContext } from './resources.js'
import { isExpandingLevel, wireChildren, type ExpandedOf } from './expansions.js'

/** How one list is read beyond the resource's own filters. */
export interface ListSpec {
  /** Flags the list accepts besides paging and filters (expansions, includeNumbers, ...). */
  readonly flags?: readonly string[]
  /** Conditions from a parent, after checking it exists; run before the parameters are read (contract 2's order). */
  readonly scope?: () => Promise<Condition[]>
  /** Conditions that depend on the list's flags. */
  readonly refine?: (request: ListRequest) => Condition[]
}

/** One page of a list and the request it answered. */
export interface ListPage<T = Item> {
  readonly items: T[]
  readonly hasMore: boolean
  readonly request: ListRequest
}

/** Reads one page of a list from query-style parameters, validated strictly (`invalid_query`). */
export function listPage(ctx: ResourceContext, resource: Resource, params: RawParams, spec: ListSpec = {}): Promise<ListPage> {
  return readListPage(resource, params, spec, (request, where) => listItems(ctx, resource, request, where))
}

/** `listPage` with each item as the JSON text the API answers with (see `ListJson`). */
export function listWirePage(ctx: ResourceContext, resource: Resource, params: RawParams, spec: ListSpec = {}): Promise<ListPage<WireItem>> {
  return readListPage(resource, params, spec, (request, where) => listWireItems(ctx, resource, request, where))
}

/**
 * `listWirePage` of customers, numbers or services, each item with the children its flags ask
 * for. The children are found by the page's own query, so their statements run beside the
 * page's rather than after it (on Postgres, each on a connection of its own).
 */
export function listExpandedWirePage(ctx: ResourceContext, resource: Resource, params: RawParams, spec: ListSpec = {}): Promise<ListPage<ExpandedOf<WireItem>>> {
  const level = resource.name
  if (!isExpandingLevel(level)) throw new Error(`${level} has no expansions`)
  return readListPage(resource, params, spec, async (request, where) => {
    const query = pageQuery(request, where)
    const [rows, attach] = await Promise.all([
      ctx.store.listJson.list(level, query),
      wireChildren(ctx.store, level, { resource: level, page: query }, request.flags),
    ])
    const { items, hasMore } = trimPage(rows, request)
    return { items: attach(items), hasMore }
  })
}

async function readListPage<T>(
  resource: Resource,
  params: RawParams,
  spec: ListSpec,
  read: (request: ListRequest, where: Condition[]) => Promise<{ items: T[]; hasMore: boolean }>,
): Promise<ListPage<T>> {
  const scope = spec.scope ? await spec.scope() : []
  const request = parseListRequest(resource, params, spec.flags)
  const refined = spec.refine ? spec.refine(request) : []
  const { items, hasMore } = await read(request, [...scope, ...refined])
  return { items, hasMore, request }
}
