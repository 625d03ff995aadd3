import { notFound } from '../errors.js'
import type { Values } from '../fields/item.js'
import type { ResourceName } from '../fields/resource.js'
import type { Condition } from '../ports/resource-repository.js'
import type { Store } from '../ports/store.js'
import type { ListRequest } from './list-request.js'
import { customerOwner, featureOwner, type FeatureParent } from './owners.js'

const eq = (column: string, value: string): Condition => ({ op: 'eq', column, value })
const isNull = (column: string): Condition => ({ op: 'isNull', column, value: true })

/** `{ [column]: id }` once the parent exists (`not_found` otherwise): the owner of a child created under it. */
export async function parentOwner(store: Store, parent: ResourceName, id: string, column: string): Promise<Values> {
  const repo = store.repository(parent)
  if (!(await repo.get(id))) throw notFound(repo.resource.singular, id)
  return { [column]: id }
}

/** The children of a parent that must exist: a list scoped under it (`/tariffs/1/tariffDetails`). */
export async function parentScope(store: Store, parent: ResourceName, id: string, column: string): Promise<Condition[]> {
  await parentOwner(store, parent, id, column)
  return [eq(column, id)]
}

/** A customer's numbers, services or direct contacts. */
export async function customerScope(store: Store, customerID: string): Promise<Condition[]> {
  return [eq('customerID', (await customerOwner(store, customerID)).customerID)]
}

/** The features listed under a customer, a number or a service (contract 6). */
export async function featureScope(store: Store, parent: FeatureParent, id: string): Promise<Condition[]> {
  const owner = await featureOwner(store, parent, id)
  if (parent === 'customers') return [eq('customerID', owner.customerID)]
  return [eq(parent === 'numbers' ? 'numberID' : 'serviceID', id)]
}

/** Flags of a scoped feature list: under a customer, includeNumbers / includeServices add those features. */
export const featureListFlags = (parent: FeatureParent): readonly string[] => (parent === 'customers' ? ['includeNumbers', 'includeServices'] : [])

/** A customer's own features, unless the flags include those on its numbers or services. */
export function featureRefine(parent: FeatureParent, request: ListRequest): Condition[] {
  // A feature has at most one of numberID and serviceID, so each flag lifts one "is null".
  if (parent !== 'customers') return []
  return [...(request.flags.has('includeNumbers') ? [] : [isNull('numberID')]), ...(request.flags.has('includeServices') ? [] : [isNull('serviceID')])]
}

/** A dealerCode filter lists shared contacts only (a direct contact has no dealer code of its own). */
export const sharedContactRefine = (request: ListRequest): Condition[] =>
  request.where.some((c) => c.column === 'dealerCode') ? [isNull('customerID')] : []
