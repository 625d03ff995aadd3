import { BillingError } from '../../core/errors.js'
import { itemActions, type ActionBody, type ActionCollection, type ActionName, type ActionResult } from '../../core/actions/action-table.js'
import type { FilterNameOf, InputOf, PatchOf, ShownOf } from '../../core/fields/entity.js'
import { runItemAction } from '../../core/actions/item-actions.js'
import { objectBody } from '../../core/input/object-body.js'
import type { Item, Values } from '../../core/fields/item.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { PlatformContext } from '../../core/platform.js'
import type { Expanded } from '../../core/resources/expansions.js'
import type { RawParams } from '../../core/resources/list-request.js'
import { listPage, type ListPage, type ListSpec } from '../../core/resources/list-page.js'
import { deleteItem } from '../../core/resources/removals.js'
import { createItem, getItem, updateItem } from '../../core/resources/resources.js'

/** A request body of no particular collection: an object of fields, as the API's JSON takes them. */
export type Body = Readonly<Record<string, unknown>>

/** A list parameter's value as the query string would carry it: numbers and booleans are read as their text. */
export type ListParamValue = string | number | boolean | readonly string[] | undefined

/** List parameters of no particular list, as the library passes them on. */
export type AnyListParams = Readonly<Record<string, ListParamValue>>

/**
 * List parameters of collection `N` as the API's query string takes them: paging (`limit`,
 * `offset`, `idAfter`), `createdSince` / `updatedSince`, the collection's filters (named by the
 * catalogue) and the list's own flags `X` (expansions, includeNumbers). A misspelt name fails to
 * compile; a value is checked at run time and refused with `invalid_query`, as over HTTP.
 */
export type ListParams<N extends ResourceName = ResourceName, X extends string = never> = {
  readonly limit?: number | string
  readonly offset?: number | string
  readonly idAfter?: string | number
  /** A datetime: items created at or after it. */
  readonly createdSince?: string
  /** A datetime: items changed at or after it. */
  readonly updatedSince?: string
} & { readonly [K in FilterNameOf<N> | X]?: ListParamValue }

/** One page of a list: the items in ID order, and whether more follow (ask again with `idAfter`). */
export interface Page<T = Item> {
  /** At most `limit` items (default 100). */
  readonly items: T[]
  /** Whether a next page exists: ask again with `idAfter` = the last item's ID (or the next `offset`). */
  readonly hasMore: boolean
}

/** A page of customers, numbers or services; `expanded` is there when an expansion flag was given. */
export interface ExpandablePage<T = Item> extends Page<T> {
  /** The items with the children the flags asked for, in the same order; `toWire` shapes them as the API does. */
  readonly expanded?: Expanded[]
}

/** Reading one collection. */
export interface ReadApi<N extends ResourceName = ResourceName> {
  /** One item by ID; `not_found` when there is none. */
  get(id: string): Promise<ShownOf<N>>
  /** One page of the whole collection. */
  list(params?: ListParams<N>): Promise<Page<ShownOf<N>>>
}

/** Reading, updating and deleting one collection. */
export interface ResourceApi<N extends ResourceName = ResourceName> extends ReadApi<N> {
  /** Partial merge: absent fields unchanged, null clears, read-only fields compared (contract 2). */
  update(id: string, body: PatchOf<N>): Promise<ShownOf<N>>
  /** Deletes the item and what depends on it; answers the item as it was. */
  delete(id: string): Promise<ShownOf<N>>
}

/** What an action answers: the collection's item when it answers one (most do), else its own result (`{ pin }`, links). */
export type ActionAnswer<C extends ActionCollection, A extends ActionName<C>> = ActionResult<C, A> extends { readonly id: string } ? ShownOf<C> : ActionResult<C, A>

/**
 * The body argument of an action: required when the action has a required parameter. Taken one
 * name at a time, so a name that is not an action (inferred as the union of them all) allows the
 * shortest call and the compiler faults the name itself, not the number of arguments.
 */
type ActionArgs<C extends ActionCollection, A extends ActionName<C>> = A extends unknown ? ({} extends ActionBody<C, A> ? [body?: ActionBody<C, A>] : [body: ActionBody<C, A>]) : never

/**
 * Runs a named action of the collection. The name is one of the collection's actions and the
 * body that action's parameters, both checked when compiling; a body is checked again at run
 * time, as over HTTP (`invalid_field`, `unknown_action`).
 */
export type ActionRunner<C extends ActionCollection> = <A extends ActionName<C>>(id: string, name: A, ...body: ActionArgs<C, A>) => Promise<ActionAnswer<C, A>>

/**
 * An item as a library caller sees it: the item core gives without its collection's internal and
 * write-only fields (a customer's hashed `portalPIN`, a contact's password hash, a feature's
 * charge history), which the API never shows either. Items are copied, never changed in place.
 */
export function visibleItem(name: ResourceName, item: Item): Item {
  const hidden = hiddenFields(name)
  if (hidden.length === 0) return item
  const out: Record<string, unknown> = { ...item }
  for (const field of hidden) delete out[field]
  return out as Item
}

const hiddenByName = new Map<ResourceName, string[]>()
function hiddenFields(name: ResourceName): string[] {
  let hidden = hiddenByName.get(name)
  if (!hidden) hiddenByName.set(name, (hidden = (resourcesByName.get(name)?.fields ?? []).filter((f) => f.internal || f.writeOnly).map((f) => f.name)))
  return hidden
}

/** The library's answer: the item core gives, as the shown fields of its collection. */
export const shown = async <N extends ResourceName>(name: N, item: Promise<Item>): Promise<ShownOf<N>> => visibleItem(name, await item) as unknown as ShownOf<N>
export const shownPage = <N extends ResourceName>(name: N, page: Page): Page<ShownOf<N>> =>
  ({ ...page, items: page.items.map((i) => visibleItem(name, i)) }) as unknown as Page<ShownOf<N>>

/** The catalogue entry of a stored collection. */
export function resourceOf(ctx: PlatformContext, name: ResourceName): Resource {
  const resource = ctx.resources.get(name)
  // A JavaScript caller's name is unchecked by the types: its mistake is the API's 404, not a bug of ours.
  if (!resource) throw new BillingError('not_found', `No collection ${JSON.stringify(String(name))}`, `Give one of ${[...ctx.resources.keys()].join(', ')}.`)
  return resource
}

/**
 * Query-style parameters from the library's friendlier ones (numbers and booleans as text), on an
 * object with no prototype: a caller's `__proto__` key is a name the list refuses, not a setter.
 */
export function toRawParams(params: AnyListParams = {}): RawParams {
  const out: Record<string, string | readonly string[] | undefined> = Object.create(null)
  for (const [name, value] of Object.entries(params)) {
    out[name] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
  }
  return out
}

/** A page without the parsed request. */
export const toPage = ({ items, hasMore }: ListPage): Page => ({ items, hasMore })

/** Reads a page of a collection with the list's scope, flags and refinements. */
export async function readPage(ctx: PlatformContext, name: ResourceName, params: AnyListParams | undefined, spec: ListSpec = {}): Promise<ListPage> {
  return listPage(ctx, resourceOf(ctx, name), toRawParams(params), spec)
}

/** get and list of a collection. */
export function readApi<N extends ResourceName>(ctx: PlatformContext, name: N, spec: ListSpec = {}): ReadApi<N> {
  return {
    get: (id) => shown(name, getItem(ctx, resourceOf(ctx, name), id)),
    list: async (params) => shownPage(name, toPage(await readPage(ctx, name, params, spec))),
  }
}

/** get, list, update and delete of a collection, as its HTTP routes do them. */
export function resourceApi<N extends ResourceName>(ctx: PlatformContext, name: N, spec: ListSpec = {}): ResourceApi<N> {
  return {
    ...readApi(ctx, name, spec),
    update: (id, body) => shown(name, updateItem(ctx, resourceOf(ctx, name), id, body)),
    delete: (id) => shown(name, deleteItem(ctx, name, id)),
  }
}

/** Creates an item; `owner` gives the owner IDs of a create under a parent (checked first). */
export async function create<N extends ResourceName>(ctx: PlatformContext, name: N, body: InputOf<N> | Body, owner?: () => Promise<Values>): Promise<ShownOf<N>> {
  const values = owner ? await owner() : {}
  return shown(name, createItem(ctx, resourceOf(ctx, name), body, values))
}

/** The action runner of a collection: the item, then the body, then the action name (contract 2). */
export function actionRunner<C extends ActionCollection>(ctx: PlatformContext, name: C): ActionRunner<C> {
  return (async (id: string, action: string, body: unknown = {}) => {
    const result = await runItemAction(ctx, resourceOf(ctx, name), itemActions[name], id, action, () => objectBody(body))
    // An action answers its item (most do) or a result of its own ({ pin }, links).
    return isItem(result) ? visibleItem(name, result) : result
  }) as ActionRunner<C>
}

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
