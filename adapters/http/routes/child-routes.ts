import type { Resource } from '../../../core/fields/resource.js'
import { expansionFlags } from '../../../core/resources/expansions.js'
import { customerOwner, featureOwner, type FeatureParent } from '../../../core/resources/owners.js'
import { customerScope, featureListFlags, featureRefine, featureScope } from '../../../core/resources/scopes.js'
import { updateFeature } from '../../../core/billing/update-feature.js'
import type { Route } from '../route.js'
import { expandingPresenter } from './presenters.js'
import { createRoute, deleteRoute, getRoute, listRoute, updateRoute } from './resource-routes.js'

type Catalogue = (n: 'numbers' | 'services' | 'features') => Resource

const singular = { customers: 'customer', numbers: 'number', services: 'service' } as const

/** Numbers and services: their own collection, and scoped under a customer. */
export function customerChildRoutes(kind: 'numbers' | 'services', r: Catalogue): Route[] {
  const resource = r(kind)
  const present = expandingPresenter(kind)
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
      scope: (ctx) => customerScope(ctx.platform.store, ctx.params.id),
    }),
    createRoute(resource, {
      path: `/customers/:id/${kind}`,
      summary: `Add a ${resource.singular} to a customer`,
      owner: (ctx) => customerOwner(ctx.platform.store, ctx.params.id),
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
      flags: featureListFlags(parent),
      scope: (ctx) => featureScope(ctx.platform.store, parent, ctx.params.id),
      refine: (request) => featureRefine(parent, request),
    }),
    createRoute(features, {
      path: `/${parent}/:id/features`,
      summary: `Add a feature to a ${singular[parent]}`,
      owner: (ctx) => featureOwner(ctx.platform.store, parent, ctx.params.id),
    }),
  ]
  return [
    listRoute(features, { path: '/features', summary: 'List features' }),
    getRoute(features),
    updateRoute(features, updateFeature),
    deleteRoute(features),
    ...scoped('customers'),
    ...scoped('numbers'),
    ...scoped('services'),
  ]
}
