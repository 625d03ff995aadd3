import type { Resource } from '../../../core/fields/resource.js'
import type { Condition } from '../../../core/ports/resource-repository.js'
import { customerOwner, featureOwner, type FeatureParent } from '../../../core/resources/owners.js'
import type { Route } from '../route.js'
import { expandingPresenter, expansionFlags } from './presenters.js'
import { createRoute, deleteRoute, getRoute, listRoute, updateRoute } from './resource-routes.js'

type Catalogue = (n: 'numbers' | 'services' | 'features') => Resource

const singular = { customers: 'customer', numbers: 'number', services: 'service' } as const

/** Numbers and services: their own collection, and scoped under a customer. */
export function customerChildRoutes(kind: 'numbers' | 'services', r: Catalogue): Route[] {
  const resource = r(kind)
  const present = expandingPresenter(kind, r)
  const flags = expansionFlags[kind]
  return [
    listRoute(resource, { path: `/${kind}`, summary: `List ${kind}`, flags, present }),
    getRoute(resource, present, flags),
    updateRoute(resource),
    deleteRoute(resource, `Delete a ${resource.singular} and its features`),
    listRoute(resource, {
      path: `/customers/:id/${kind}`,
      summary: `List a customer's ${kind}`,
      flags,
      present,
      scope: async (ctx) => [eq('customerID', (await customerOwner(ctx.platform.store, ctx.params.id)).customerID as string)],
    }),
    createRoute(resource, {
      path: `/customers/:id/${kind}`,
      summary: `Add a ${resource.singular} to a customer`,
      owner: async (ctx) => (await customerOwner(ctx.platform.store, ctx.params.id)) as Record<string, string>,
    }),
  ]
}

/** Features: their own collection, and scoped under a customer, a number or a service (contract 6). */
export function featureRoutes(r: Catalogue): Route[] {
  const features = r('features')
  const scoped = (parent: FeatureParent): Route[] => [
    listRoute(features, {
      path: `/${parent}/:id/features`,
      summary:
        parent === 'customers'
          ? "List the customer's own features (includeNumbers / includeServices add those on its numbers / services)"
          : `List a ${singular[parent]}'s features`,
      flags: parent === 'customers' ? ['includeNumbers', 'includeServices'] : [],
      scope: async (ctx) => {
        const owner = await featureOwner(ctx.platform.store, parent, ctx.params.id)
        if (parent === 'customers') return [eq('customerID', owner.customerID as string)]
        return [eq(parent === 'numbers' ? 'numberID' : 'serviceID', ctx.params.id)]
      },
      // A feature has at most one of numberID and serviceID, so each flag lifts one "is null".
      refine: (request) =>
        parent !== 'customers'
          ? []
          : [
              ...(request.flags.has('includeNumbers') ? [] : [isNull('numberID')]),
              ...(request.flags.has('includeServices') ? [] : [isNull('serviceID')]),
            ],
    }),
    createRoute(features, {
      path: `/${parent}/:id/features`,
      summary: `Add a feature to a ${singular[parent]}`,
      owner: async (ctx) => (await featureOwner(ctx.platform.store, parent, ctx.params.id)) as Record<string, string>,
    }),
  ]
  return [
    listRoute(features, { path: '/features', summary: 'List features' }),
    getRoute(features),
    updateRoute(features),
    deleteRoute(features),
    ...scoped('customers'),
    ...scoped('numbers'),
    ...scoped('services'),
  ]
}

const eq = (column: string, value: string): Condition => ({ op: 'eq', column, value })
const isNull = (column: string): Condition => ({ op: 'isNull', column, value: true })
