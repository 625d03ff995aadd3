import type { InputOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { updateFeature } from '../../core/billing/update-feature.js'
import { customerOwner, featureOwner, type FeatureParent } from '../../core/resources/owners.js'
import { customerScope, featureListFlags, featureRefine, featureScope } from '../../core/resources/scopes.js'
import { expandablePage, type ExpansionFlag } from './customers-api.js'
import {
  actionRunner,
  type AnyListParams,
  create,
  readPage,
  resourceApi,
  shown,
  shownPage,
  toPage,
  type ActionRunner,
  type ExpandablePage,
  type ListParams,
  type Page,
  type ResourceApi,
} from './resource-api.js'

/** A customer's numbers or services. */
export interface CustomerChildApi<C extends 'numbers' | 'services'> extends ResourceApi<C> {
  /** Adds one to the customer (`not_found` when the customer does not exist). */
  create(customerID: string, body: InputOf<C>): Promise<ShownOf<C>>
  /** One page of the whole collection; filters and the flags expandFeatures, featureActive. */
  list(params?: ListParams<C, ExpansionFlag<C>>): Promise<ExpandablePage<ShownOf<C>>>
  /** One page of the customer's. */
  listOf(customerID: string, params?: ListParams<C, ExpansionFlag<C>>): Promise<ExpandablePage<ShownOf<C>>>
  /** Lifecycle actions (drop, reinstate, suspend, unsuspend, makeNonBillable, makeBillable); answer the updated item. */
  readonly action: ActionRunner<C>
}

/** Where a feature hangs: on the customer itself, or on one of its numbers or services. */
export type FeatureOwner = { readonly customerID: string } | { readonly numberID: string } | { readonly serviceID: string }

/** Features (billable items) of customers, numbers and services. */
export interface FeaturesApi extends ResourceApi<'features'> {
  /** Adds a feature under its owner (`not_found` when the owner does not exist). */
  create(owner: FeatureOwner, body: InputOf<'features'>): Promise<ShownOf<'features'>>
  /** Features listed under a customer; the flags includeNumbers and includeServices add those of its numbers and services. */
  listOf(owner: { readonly customerID: string }, params?: ListParams<'features', 'includeNumbers' | 'includeServices'>): Promise<Page<ShownOf<'features'>>>
  /** Features listed under a number or a service. */
  listOf(owner: FeatureOwner, params?: ListParams<'features'>): Promise<Page<ShownOf<'features'>>>
  /** Lifecycle actions and changeRecurringCharge; each answers the updated feature. */
  readonly action: ActionRunner<'features'>
}

export function customerChildApi<C extends 'numbers' | 'services'>(ctx: PlatformContext, kind: C): CustomerChildApi<C> {
  return {
    ...resourceApi(ctx, kind),
    create: (customerID, body) => create(ctx, kind, body, () => customerOwner(ctx.store, customerID)),
    list: (params) => expandablePage<C>(ctx, kind, params),
    listOf: (customerID, params) => expandablePage<C>(ctx, kind, params, { scope: () => customerScope(ctx.store, customerID) }),
    action: actionRunner(ctx, kind),
  }
}

const parentOf = (owner: FeatureOwner): [FeatureParent, string] =>
  'customerID' in owner ? ['customers', owner.customerID] : 'numberID' in owner ? ['numbers', owner.numberID] : ['services', owner.serviceID]

export function featuresApi(ctx: PlatformContext): FeaturesApi {
  return {
    ...resourceApi(ctx, 'features'),
    update: (id, body) => shown('features', updateFeature(ctx, id, body)),
    create: (owner, body) => {
      const [parent, id] = parentOf(owner)
      return create(ctx, 'features', body, () => featureOwner(ctx.store, parent, id))
    },
    listOf: async (owner: FeatureOwner, params?: AnyListParams) => {
      const [parent, id] = parentOf(owner)
      return shownPage('features', toPage(
        await readPage(ctx, 'features', params, {
          flags: featureListFlags(parent),
          scope: () => featureScope(ctx.store, parent, id),
          refine: (request) => featureRefine(parent, request),
        }),
      ))
    },
    action: actionRunner(ctx, 'features'),
  }
}
