import { itemActions, type ActionCollection, type ActionName, type ActionResult } from '../../core/actions/action-table.js'
import { runItemAction } from '../../core/actions/item-actions.js'
import { objectBody } from '../../core/input/object-body.js'
import type { Item, Values } from '../../core/fields/item.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import type { PlatformContext } from '../../core/platform.js'
import type { Expanded } from '../../core/resources/expansions.js'
import type { RawParams } from '../../core/resources/list-request.js'
import { listPage, type ListPage, type ListSpec } from '../../core/resources/list-page.js'
import { deleteItem } from '../../core/resources/removals.js'
import { createItem, getItem, updateItem } from '../../core/resources/resources.js'

/** A request body: an object of the resource's fields, as the API's JSON takes them. */
export type Body = Readonly<Record<string, unknown>>

/**
 * List parameters as the API's query string takes them: paging (`limit`, `offset`, `idAfter`),
 * `createdSince` / `updatedSince`, the collection's filters and flags. Numbers and booleans are
 * read as their text; anything else is refused with `invalid_query`, as over HTTP.
 */
export type ListParams = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>

/** One page of a list: the items in ID order, and whether more follow (ask again with `idAfter`). */
export interface Page {
  /** At most `limit` items (default 100). */
  readonly items: Item[]
  /** Whether a next page exists: ask again with `idAfter` = the last item's ID (or the next `offset`). */
  readonly hasMore: boolean
}

/** A page of customers, numbers or services; `expanded` is there when an expansion flag was given. */
export interface ExpandablePage extends Page {
  /** The items with the children the flags asked for, in the same order; `toWire` shapes them as the API does. */
  readonly expanded?: Expanded[]
}

/** Reading one collection. */
export interface ReadApi {
  /** One item by ID; `not_found` when there is none. */
  get(id: string): Promise<Item>
  /** One page of the whole collection. */
  list(params?: ListParams): Promise<Page>
}

/** Reading, updating and deleting one collection. */
export interface ResourceApi extends ReadApi {
  /** Partial merge: absent fields unchanged, null clears, read-only fields compared (contract 2). */
  update(id: string, body: Body): Promise<Item>
  /** Deletes the item and what depends on it; answers the item as it was. */
  delete(id: string): Promise<Item>
}

/** Runs a named action of the collection: typed names and answers, or any name (checked: `unknown_action`). */
export interface ActionRunner<C extends ActionCollection> {
  <N extends ActionName<C>>(id: string, name: N, body?: Body): Promise<ActionResult<C, N>>
  (id: string, name: string, body?: unknown): Promise<unknown>
}

/** The catalogue entry of a stored collection. */
export function resourceOf(ctx: PlatformContext, name: ResourceName): Resource {
  const resource = ctx.resources.get(name)
  if (!resource) throw new Error(`no stored collection ${name}`)
  return resource
}

/** Query-style parameters from the library's friendlier ones (numbers and booleans as text). */
export function toRawParams(params: ListParams = {}): RawParams {
  const out: Record<string, string | readonly string[] | undefined> = {}
  for (const [name, value] of Object.entries(params)) {
    out[name] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
  }
  return out
}

/** A page without the parsed request. */
export const toPage = ({ items, hasMore }: ListPage): Page => ({ items, hasMore })

/** Reads a page of a collection with the list's scope, flags and refinements. */
export async function readPage(ctx: PlatformContext, name: ResourceName, params: ListParams | undefined, spec: ListSpec = {}): Promise<ListPage> {
  return listPage(ctx, resourceOf(ctx, name), toRawParams(params), spec)
}

/** get and list of a collection. */
export function readApi(ctx: PlatformContext, name: ResourceName, spec: ListSpec = {}): ReadApi {
  return {
    get: (id) => getItem(ctx, resourceOf(ctx, name), id),
    list: async (params) => toPage(await readPage(ctx, name, params, spec)),
  }
}

/** get, list, update and delete of a collection, as its HTTP routes do them. */
export function resourceApi(ctx: PlatformContext, name: ResourceName, spec: ListSpec = {}): ResourceApi {
  return {
    ...readApi(ctx, name, spec),
    update: (id, body) => updateItem(ctx, resourceOf(ctx, name), id, body),
    delete: (id) => deleteItem(ctx, name, id),
  }
}

/** Creates an item; `owner` gives the owner IDs of a create under a parent (checked first). */
export async function create(ctx: PlatformContext, name: ResourceName, body: Body, owner?: () => Promise<Values>): Promise<Item> {
  const values = owner ? await owner() : {}
  return createItem(ctx, resourceOf(ctx, name), body, values)
}

/** The action runner of a collection: the item, then the body, then the action name (contract 2). */
export function actionRunner<C extends ActionCollection>(ctx: PlatformContext, name: C): ActionRunner<C> {
  return ((id: string, action: string, body: unknown = {}) =>
    runItemAction(ctx, resourceOf(ctx, name), itemActions[name], id, action, () => objectBody(body))) as ActionRunner<C>
}
