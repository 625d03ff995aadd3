import type { Resource } from '../../../core/fields/resource.js'
import { toWireJson } from '../../../core/fields/wire-json.js'
import { listCustomerContacts } from '../../../core/resources/contacts.js'
import { customerOwner } from '../../../core/resources/owners.js'
import { sharedContactRefine } from '../../../core/resources/scopes.js'
import { nextLink, rawParams } from '../query.js'
import { jsonText } from '../respond.js'
import type { Route } from '../route.js'
import { createRoute, deleteRoute, getRoute, listRoute, updateRoute } from './resource-routes.js'

/** Direct and shared contacts (billing-api.md, Customer contacts). */
export function contactRoutes(contacts: Resource): Route[] {
  return [
    listRoute(contacts, {
      path: '/customerContacts',
      summary: 'List contacts, direct and shared (dealerCode filters shared contacts)',
      refine: sharedContactRefine,
    }),
    createRoute(contacts, { path: '/customerContacts', summary: 'Create a shared contact (customerID null)' }),
    getRoute(contacts),
    updateRoute(contacts),
    deleteRoute(contacts),
    {
      method: 'GET',
      path: '/customers/:id/customerContacts',
      doc: {
        summary: "List the customer's direct contacts plus the shared contacts linked to it",
        resource: 'customerContacts',
        kind: 'list',
        query: listRoute(contacts, { path: '', summary: '' }).doc.query,
      },
      async handler(event, ctx) {
        const { items, hasMore, request } = await listCustomerContacts(ctx.platform, ctx.params.id, rawParams(event))
        const link = hasMore ? nextLink(event, items.at(-1)?.id, request.offset > 0) : undefined
        return jsonText(event, 200, `[${items.map((item) => toWireJson(contacts, item)).join(',')}]`, link ? { link } : {})
      },
    },
    createRoute(contacts, {
      path: '/customers/:id/customerContacts',
      summary: 'Create a contact directly linked to the customer',
      owner: (ctx) => customerOwner(ctx.platform.store, ctx.params.id),
    }),
  ]
}
