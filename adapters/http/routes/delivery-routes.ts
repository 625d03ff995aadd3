import type { Resource } from '../../../core/fields/resource.js'
import { parentScope } from '../../../core/resources/scopes.js'
import type { Route } from '../route.js'
import { listRoute } from './resource-routes.js'

/** An invoice's deliveries (contract 14.2): one per recipient and channel, with their attempts. */
export function deliveryRoutes(deliveries: Resource): Route[] {
  return [
    listRoute(deliveries, {
      path: '/invoices/:id/deliveries',
      summary: "List an invoice's deliveries (email, post, fax), each with its status and attempts",
      scope: (ctx) => parentScope(ctx.platform.store, 'invoices', ctx.params.id, 'invoiceID'),
    }),
  ]
}
