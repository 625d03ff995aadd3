import type { H3Event } from 'h3'
import type { Resource } from '../../../core/fields/resource.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import type { Item } from '../../../core/fields/item.js'
import type { PlatformContext } from '../../../core/platform.js'
import type { WireItem } from '../../../core/ports/list-json.js'
import { acceptedParams, parseListRequest, type ListRequest, type RawParams } from '../../../core/resources/list-request.js'
import { deleteItem } from '../../../core/resources/removals.js'
import { listWirePage, type ListSpec } from '../../../core/resources/list-page.js'
import { createItem, getItem, getWireItem, updateItem } from '../../../core/resources/resources.js'
import { readJsonObject } from '../body.js'
import { nextLink, rawParams, readQuery } from '../query.js'
import { arrayPieces, joinPieces, type Pieces } from '../json-pieces.js'
import { jsonItem, jsonText } from '../respond.js'
import { BASE_PATH, type RequestContext, type Route } from '../route.js'
import { apiPath } from '../mount-prefix.js'

/** How a route reads its items and writes their JSON; expansions hook in here. */
export interface Present {
  /** One page of a list: each item's JSON, and the last item's ID (for the next page's link). */
  list(ctx: RequestContext, resource: Resource, params: RawParams, spec: ListSpec): Promise<PresentedPage>
  /** One item read by ID, with what the request's flags ask for. */
  one(item: WireItem, request: ListRequest | null, ctx: RequestContext): Promise<Pieces>
}

export interface PresentedPage {
  readonly bodies: Pieces[]
  readonly lastId: string | undefined
  readonly hasMore: boolean
  readonly request: ListRequest
}

export const presentPlain: Present = {
  async list(ctx, resource, params, spec) {
    const { items, hasMore, request } = await listWirePage(ctx.platform, resource, params, spec)
    return { bodies: items.map((item) => [item.json]), lastId: items.at(-1)?.id, hasMore, request }
  },
  one: async (item) => [item.json],
}

export interface ListOptions {
  readonly path: string
  readonly summary: string
  readonly flags?: readonly string[]
  /** Conditions from the path (a scoped list), after checking the parent exists. */
  readonly scope?: (ctx: RequestContext) => Promise<Condition[]>
  /** Conditions that depend on the route's flags. */
  readonly refine?: (request: ListRequest) => Condition[]
  readonly present?: Present
}

export function listRoute(resource: Resource, o: ListOptions): Route {
  const present = o.present ?? presentPlain
  return {
    method: 'GET',
    path: o.path,
    doc: { summary: o.summary, resource: resource.name, kind: 'list', query: acceptedParams(resource, o.flags) },
    async handler(event, ctx) {
      const { bodies, lastId, hasMore, request } = await present.list(ctx, resource, rawParams(event), {
        flags: o.flags,
        scope: o.scope && (() => o.scope!(ctx)),
        refine: o.refine,
      })
      const link = hasMore && !request.uniqueSearch ? nextLink(event, lastId, request.offset > 0) : undefined
      return jsonText(event, 200, joinPieces(arrayPieces(bodies)), link ? { link } : {})
    },
  }
}

export function getRoute(resource: Resource, present = presentPlain, flags: readonly string[] = []): Route {
  return {
    method: 'GET',
    path: `/${resource.name}/:id`,
    doc: { summary: `Fetch one ${resource.singular}`, resource: resource.name, kind: 'get', query: flags },
    async handler(event, ctx) {
      const item = await getWireItem(ctx.platform, resource, ctx.params.id)
      readQuery(event, flags)
      const request = flags.length ? parseListRequest(resource, rawParams(event), flags) : null
      const body = await present.one(item, request, ctx)
      return jsonItem(event, body.length === 1 ? body[0] : joinPieces(body))
    },
  }
}

export interface CreateOptions {
  readonly path: string
  readonly summary: string
  /** Owner IDs of a scoped create, after checking the parent exists. */
  readonly owner?: (ctx: RequestContext) => Promise<Record<string, string>>
}

export function createRoute(resource: Resource, o: CreateOptions): Route {
  return {
    method: 'POST',
    path: o.path,
    doc: { summary: o.summary, resource: resource.name, kind: 'create', errors: [409001] },
    async handler(event, ctx) {
      const owner = o.owner ? await o.owner(ctx) : {}
      readQuery(event)
      const body = await readJsonObject(event)
      const item = await createItem(ctx.platform, resource, body, owner)
      return jsonText(event, 201, toWireJson(resource, item), { location: apiPath(event, `/${resource.name}/${item.id}`) })
    },
  }
}

/** How an item is updated: the generic merge, or a collection's own use case (a feature's charge change). */
type Update = (platform: PlatformContext, id: string, body: unknown) => Promise<Item>

export function updateRoute(resource: Resource, update: Update = (platform, id, body) => updateItem(platform, resource, id, body)): Route {
  return {
    method: 'PATCH',
    path: `/${resource.name}/:id`,
    doc: { summary: `Update a ${resource.singular} (partial merge)`, resource: resource.name, kind: 'update', errors: [409001] },
    async handler(event, ctx) {
      // The update checks that the item exists, inside its transaction; a query or a body that
      // cannot be read is answered after that check (contract 2's order), so only then is the item looked up here.
      const exists = () => getItem(ctx.platform, resource, ctx.params.id)
      await queryAfterItem(() => readQuery(event), exists)
      const body = await readJsonObject(event).catch(async (error: unknown) => {
        await exists()
        throw error
      })
      const item = await update(ctx.platform, ctx.params.id, body)
      return jsonText(event, 200, toWireJson(resource, item))
    },
  }
}

/**
 * Reads the query of a route with an item or parent in its path (`read`: `readQuery`, or an
 * action's name) in contract 2's order, as GET and the lists answer: that item first (404001),
 * then the query (400103), then the body. `exists` runs only when the query is refused, so a good
 * request still looks its item up once, where its use case does.
 */
export async function queryAfterItem<T>(read: () => T, exists: () => Promise<unknown>): Promise<T> {
  try {
    return read()
  } catch (error) {
    await exists()
    throw error
  }
}

/** `DELETE /<collection>/:id`: 200 with the item as it was (dependents go with it). */
export function deleteRoute(resource: Resource, summary = `Delete a ${resource.singular}`): Route {
  return {
    method: 'DELETE',
    path: `/${resource.name}/:id`,
    doc: { summary, resource: resource.name, kind: 'delete' },
    async handler(event, ctx) {
      await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, resource, ctx.params.id))
      const item = await deleteItem(ctx.platform, resource.name, ctx.params.id)
      return jsonText(event, 200, toWireJson(resource, item))
    },
  }
}
