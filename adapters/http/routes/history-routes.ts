import type { Resource } from '../../../core/fields/resource.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { parentOwner, parentScope } from '../../../core/resources/scopes.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import { getItem } from '../../../core/resources/resources.js'
import { historiedCollections } from '../../../core/history/record-change.js'
import { createWebhook, updateWebhook } from '../../../core/webhooks/webhooks.js'
import { readJsonObject } from '../body.js'
import { jsonText } from '../respond.js'
import { BASE_PATH } from '../route.js'
import type { Route } from '../route.js'
import { deleteRoute, getRoute, listRoute } from './resource-routes.js'
import { readQuery } from '../query.js'

/** History entries and the events feed (contract 12): read-only lists in ID order. */
export function historyRoutes(history: Resource, events: Resource): Route[] {
  return [
    listRoute(history, { path: '/history', summary: 'List history entries: who changed what, and when' }),
    ...historiedCollections.map((name) =>
      listRoute(history, {
        path: `/${name}/:id/history`,
        summary: `List the history of one item of ${name}`,
        scope: async (ctx): Promise<Condition[]> => {
          await parentOwner(ctx.platform.store, name, ctx.params.id, 'resourceID')
          return [
            { op: 'eq', column: 'resource', value: name },
            { op: 'eq', column: 'resourceID', value: ctx.params.id },
          ]
        },
      }),
    ),
    listRoute(events, { path: '/events', summary: 'List events in order; poll with idAfter' }),
    getRoute(events),
  ]
}

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
        return jsonText(event, 201, `${json.slice(0, -1)},"secret":${JSON.stringify(secret)}}`, { location: `${BASE_PATH}/webhooks/${webhook.id}` })
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
