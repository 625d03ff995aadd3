import { notFound } from '../errors.js'
import type { Values } from '../fields/item.js'
import type { Store } from '../ports/store.js'

/** Levels a feature can be created under. */
export type FeatureParent = 'customers' | 'numbers' | 'services'

/**
 * The owner IDs of a feature created under a customer, a number or a service: a feature always
 * records its customer, and the number or service it is attached to (contract 6).
 */
export async function featureOwner(store: Store, parent: FeatureParent, id: string): Promise<Values> {
  const item = await store.repository(parent).get(id)
  if (!item) throw notFound(parent === 'customers' ? 'customer' : parent === 'numbers' ? 'number' : 'service', id)
  if (parent === 'customers') return { customerID: item.id }
  return { customerID: item.customerID as string, [parent === 'numbers' ? 'numberID' : 'serviceID']: item.id }
}

/** The owner of a number, service or direct contact created under a customer. */
export async function customerOwner(store: Store, customerID: string): Promise<Values> {
  if (!(await store.repository('customers').get(customerID))) throw notFound('customer', customerID)
  return { customerID }
}
