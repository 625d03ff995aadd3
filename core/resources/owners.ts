import { BillingError, notFound } from '../errors.js'
import type { ResourceName } from '../fields/resource.js'
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

const ownerLevels = [
  ['numberID', 'numbers', 'number'],
  ['serviceID', 'services', 'service'],
] as const

/**
 * Refuses (`state_not_allowed`) a number, service or feature created under a dropped customer,
 * number or service: nothing is ever active under a dropped parent (contract 5.2, 5.3), and a
 * child created there would be billed every run. Run in the create's transaction: the customer
 * row is locked, as a lifecycle action locks it first (`applyLifecycleAction`), so a drop cannot
 * take the tree between this check and the insert. Other collections pass.
 */
export async function assertLiveOwner(store: Store, name: ResourceName, owner: Readonly<Record<string, unknown>>): Promise<void> {
  if ((name !== 'numbers' && name !== 'services' && name !== 'features') || typeof owner.customerID !== 'string') return
  const customer = await store.repository('customers').getForUpdate(owner.customerID)
  if (!customer) throw notFound('customer', owner.customerID)
  const what = name === 'numbers' ? 'a number' : name === 'services' ? 'a service' : 'a feature'
  if (customer.isDropped === true) throw droppedOwner(what, 'customer', customer.id)
  for (const [column, level, singular] of ownerLevels) {
    const id = owner[column]
    if (typeof id !== 'string') continue
    const parent = await store.repository(level).get(id)
    if (!parent) throw notFound(singular, id)
    if (parent.isDropped === true) throw droppedOwner(what, singular, id)
  }
}

const droppedOwner = (what: string, parent: string, id: string) =>
  new BillingError(
    'state_not_allowed',
    `Cannot add ${what} to ${parent} ${id}: it is dropped`,
    `Reinstate the ${parent} first (POST ?action=reinstate), or add it to one that is not dropped.`,
  )
