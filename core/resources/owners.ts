import { notFound } from '../errors.js'
import type { Store } from '../ports/store.js'

/** Levels a feature can be created under. */
export type FeatureParent = 'customers' | 'numbers' | 'services'

/**
 * The owner IDs of a feature created under a customer, a number or a service: a feature always
 * records its customer, and the number or service it is attached to (contract 6).
 */
export async function featureOwner(store: Store, parent: FeatureParent, id: string): Promise<OwnerIDs> {
  if (parent === 'customers') return customerOwner(store, id)
  const item = parent === 'numbers' ? await store.repository('numbers').get(id) : await store.repository('services').get(id)
  const what = parent === 'numbers' ? 'number' : 'service'
  if (!item) throw notFound(what, id)
  // Set from the path when the number or service was created, and read-only since.
  if (!item.customerID) throw notFound(`customer of ${what}`, id)
  return parent === 'numbers' ? { customerID: item.customerID, numberID: item.id } : { customerID: item.customerID, serviceID: item.id }
}

/** The owner IDs an item created under a parent gets: its customer, and a feature's number or service. */
export type OwnerIDs = { readonly customerID: string } & Readonly<Record<string, string>>

/** The owner of a number, service or direct contact created under a customer. */
export async function customerOwner(store: Store, customerID: string): Promise<OwnerIDs> {
  if (!(await store.repository('customers').get(customerID))) throw notFound('customer', customerID)
  return { customerID }
}
