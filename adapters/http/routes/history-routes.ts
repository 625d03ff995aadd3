import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { parentOwner } from '../../../core/resources/scopes.js'
import type { Route } from '../route.js'
import { getRoute, listRoute } from './resource-routes.js'

/** Collections whose items have a history of their own (`GET /<collection>/<id>/history/`). */
const withHistory: readonly ResourceName[] = [
  'customers',
  'numbers',
  'services',
  'features',
  'customerContacts',
  'tariffs',
  'fixedFeeTariffs',
  'tariffDetails',
  'fixedFeeTariffDetails',
  'transactions',
  'billingRuns',
]

/** History entries and the events feed (contract 12): read-only lists in ID order. */
export function historyRoutes(history: Resource, events: Resource): Route[] {
  return [
    listRoute(history, { path: '/history', summary: 'List history entries: who changed what, and when' }),
    ...withHistory.map((name) =>
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
