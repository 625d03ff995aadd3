import type { Resource } from '../../../core/fields/resource.js'
import { customerOwner } from '../../../core/resources/owners.js'
import { parseListRequest } from '../../../core/resources/list-request.js'
import { nextLink, rawParams } from '../query.js'
import { json } from '../respond.js'
import type { Route } from '../route.js'
import { createRoute, deleteRoute, getRoute, listRoute, presentPlain, updateRoute } from './resource-routes.js'

/** Direct and shared contacts (billing-api.md, Customer contacts). */
export function contactRoutes(contacts: Resource): Route[] {
  const present = presentPlain(contacts)
  return [
    listRoute(contacts, {
      path: '/customerContacts',
      summary: 'List contacts, direct and shared (dealerCode filters shared contacts)',
      refine: (request) => (request.where.some((c) => c.column === 'dealerCode') ? [{ op: 'isNull', column: 'customerID', value: true }] : []),
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
        const { customerID } = await customerOwner(ctx.platform.store, ctx.params.id)
        const request = parseListRequest(contacts, rawParams(event))
        const where = request.where.some((c) => c.column === 'dealerCode')
          ? [...request.where, { op: 'isNull' as const, column: 'customerID', value: true }]
          : request.where
        const rows = await ctx.platform.store.contacts.listForCustomer(customerID as string, {
          where,
          idAfter: request.idAfter,
          offset: request.offset,
          limit: request.limit + 1,
        })
        const hasMore = rows.length > request.limit
        const items = hasMore ? rows.slice(0, request.limit) : rows
        const link = hasMore ? nextLink(event, items.at(-1)?.id, request.offset > 0) : undefined
        return json(event, 200, await present(items, request, ctx), link ? { link } : {})
      },
    },
    createRoute(contacts, {
      path: '/customers/:id/customerContacts',
      summary: 'Create a contact directly linked to the customer',
      owner: async (ctx) => (await customerOwner(ctx.platform.store, ctx.params.id)) as Record<string, string>,
    }),
  ]
}
