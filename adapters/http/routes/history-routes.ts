import type { Resource } from '../../../core/fields/resource.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { parentOwner, parentScope } from '../../../core/resources/scopes.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import { getItem } from '../../../core/resources/resources.js'
import { historiedCollections } from '../../../core/history/record-change.js'
import { createWebhook, updateWebhook } from '../../../core/webhooks/webhooks.js'
import { readJsonObject } from '../body.js'
import { jsonText } from '../respond.js'
import { apiPath } from '../mount-prefix.js'
import type { Access, Method, RequestContext, Route } from '../route.js'
import { accessRefusal } from '../middleware/access-level.js'
import { errorCodeOf } from '../error-response.js'
import type { BillingError } from '../../../core/errors.js'
import type { ListRequest } from '../../../core/resources/list-request.js'
import { deleteRoute, getRoute, listRoute, presentPlain, type Present } from './resource-routes.js'
import { readQuery } from '../query.js'

/** The access the route table gives a route (undefined: a valid key is enough). */
export type AccessOf = (method: Method, path: string) => Access | undefined

/** `AccessOf` read from a route table. */
export const accessOfRoutes =
  (routes: readonly Route[]): AccessOf =>
  (method, path) =>
    routes.find((r) => r.method === method && r.path === path)?.access

/**
 * Events whose data is what a route guards, with that route: a credit note as `GET
 * /creditNotes/:id` shows it, a refund as its flow makes it (contract 15.3). Each is read only
 * by a key that may use the route.
 */
const guardedEvents: Readonly<Record<string, readonly [Method, string]>> = {
  'credit_note.issued': ['GET', '/creditNotes/:id'],
  'refund.created': ['POST', '/customers/:id/refunds'],
}

/**
 * History entries and the events feed (contract 12): read-only lists in ID order. An entry shows
 * every field of its item, so it takes the access of `GET /<collection>/:id` (a credit note's:
 * expert level 3): an item's history is refused as the item is, and the whole history and the
 * events feed leave out what the key may not read.
 */
export function historyRoutes(history: Resource, events: Resource, accessOf: AccessOf): Route[] {
  const itemAccess = (name: string) => accessOf('GET', `/${name}/:id`)
  const guardedEntries = guards(historiedCollections.map((name) => [name, itemAccess(name)]))
  const guardedFeed = guards(Object.entries(guardedEvents).map(([type, [method, path]]) => [type, accessOf(method, path)]))
  const entries = withheld('resource', guardedEntries)
  const feed = withheld('type', guardedFeed)
  return [
    refusing(listRoute(history, { path: '/history', summary: 'List history entries: who changed what, and when (those of items the key may not read left out)', present: entries }), guardedEntries),
    ...historiedCollections.map((name): Route => {
      const route = listRoute(history, {
        path: `/${name}/:id/history`,
        summary: `List the history of one item of ${name}`,
        scope: async (ctx): Promise<Condition[]> => {
          await parentOwner(ctx.platform.store, name, ctx.params.id, 'resourceID')
          return [
            { op: 'eq', column: 'resource', value: name },
            { op: 'eq', column: 'resourceID', value: ctx.params.id },
          ]
        },
      })
      const access = itemAccess(name)
      return access ? { ...route, access } : route
    }),
    refusing(listRoute(events, { path: '/events', summary: 'List events in order; poll with idAfter (those whose data the key may not read left out)', present: feed }), guardedFeed),
    refusing(getRoute(events, feed), guardedFeed),
  ]
}

/** A log route documents the refusals its `withheld` answers: asking for what the key may not read. */
const refusing = (route: Route, guarded: ReadonlyMap<string, Access>): Route => {
  const codes = [...guarded.values()].map((access) => errorCodeOf(accessRefusal(access, null)!.code))
  return { ...route, doc: { ...route.doc, errors: [...new Set([...(route.doc.errors ?? []), ...codes])] } }
}

const guards = (pairs: readonly (readonly [string, Access | undefined])[]): ReadonlyMap<string, Access> =>
  new Map(pairs.filter((pair): pair is readonly [string, Access] => pair[1] !== undefined))

/**
 * Reads a log (history, events) leaving out the rows whose `column` names what the key may not
 * read: in the query, so pages stay full and `idAfter` walks on in order. Asking for such rows
 * by that filter, or for one by ID, is refused as their route refuses the key.
 */
function withheld(column: string, guarded: ReadonlyMap<string, Access>): Present {
  const refusals = (key: RequestContext['key']) => {
    const out = new Map<string, BillingError>()
    for (const [value, access] of guarded) {
      const refusal = accessRefusal(access, key)
      if (refusal) out.set(value, refusal)
    }
    return out
  }
  return {
    list(ctx, resource, params, spec) {
      const refused = refusals(ctx.key)
      if (refused.size === 0) return presentPlain.list(ctx, resource, params, spec)
      const refine = (request: ListRequest): Condition[] => {
        for (const c of request.where) if (c.op === 'eq' && c.column === column && typeof c.value === 'string' && refused.has(c.value)) throw refused.get(c.value)
        return [...(spec.refine?.(request) ?? []), { op: 'notIn', column, values: [...refused.keys()] }]
      }
      return presentPlain.list(ctx, resource, params, { ...spec, refine })
    },
    async one(item, request, ctx) {
      const refused = refusals(ctx.key)
      if (refused.size) {
        const value = (JSON.parse(utf8.decode(item.json)) as Record<string, unknown>)[column]
        if (typeof value === 'string' && refused.has(value)) throw refused.get(value)
      }
      return presentPlain.one(item, request, ctx)
    },
  }
}

const utf8 = new TextDecoder()

/** Webhooks (contract 12), managed with expert level 5; the signing secret is in the create response only. */
export function webhookRoutes(webhooks: Resource, deliveries: Resource): Route[] {
  const hooks = webhooks as Resource<'webhooks'>
  const routes: Route[] = [
    listRoute(webhooks, { path: '/webhooks', summary: 'List webhooks' }),
    {
      method: 'POST',
      path: '/webhooks',
      doc: { summary: 'Create a webhook; the response alone shows its signing secret', resource: 'webhooks', kind: 'create' },
      async handler(event, ctx) {
        readQuery(event)
        const { webhook, secret } = await createWebhook(ctx.platform, hooks, await readJsonObject(event))
        const json = toWireJson(webhooks, webhook)
        return jsonText(event, 201, `${json.slice(0, -1)},"secret":${JSON.stringify(secret)}}`, { location: apiPath(event, `/webhooks/${webhook.id}`) })
      },
    },
    getRoute(webhooks),
    {
      method: 'PATCH',
      path: '/webhooks/:id',
      doc: { summary: 'Update a webhook (partial merge); active: true resumes its deliveries in order', resource: 'webhooks', kind: 'update' },
      async handler(event, ctx) {
        await getItem(ctx.platform, webhooks, ctx.params.id)
        readQuery(event)
        const item = await updateWebhook(ctx.platform, hooks, ctx.params.id, await readJsonObject(event))
        return jsonText(event, 200, toWireJson(webhooks, item))
      },
    },
    deleteRoute(webhooks),
    listRoute(deliveries, {
      path: '/webhooks/:id/deliveries',
      summary: "List a webhook's deliveries, each with its attempts",
      scope: (ctx) => parentScope(ctx.platform.store, 'webhooks', ctx.params.id, 'webhookID'),
    }),
  ]
  return routes.map((route) => ({ ...route, access: 'expertLevel5' as const }))
}
