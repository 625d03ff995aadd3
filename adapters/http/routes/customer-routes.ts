import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem, scheduleCustomerDeletion } from '../../../core/resources/resources.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { createRoute, getRoute, listRoute, queryAfterItem, updateRoute, type Present } from './resource-routes.js'
import { readQuery } from '../query.js'

/** The customer routes: CRUD, with DELETE scheduling the purge (contract 5.6). */
export function customerRoutes(customers: Resource, present?: Present, expansionFlags: readonly string[] = []): Route[] {
  return [
    listRoute(customers, { path: '/customers', summary: 'List customers', flags: expansionFlags, present }),
    createRoute(customers, { path: '/customers', summary: 'Create a customer' }),
    getRoute(customers, present, expansionFlags),
    updateRoute(customers),
    {
      method: 'DELETE',
      path: '/customers/:id',
      doc: { summary: 'Schedule the deletion of a customer (purged after 30 days)', resource: 'customers', kind: 'delete' },
      async handler(event, ctx) {
        await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, customers, ctx.params.id))
        const item = await scheduleCustomerDeletion(ctx.platform, customers, ctx.params.id)
        return json(event, 200, toWire(customers, item))
      },
    },
  ]
}
