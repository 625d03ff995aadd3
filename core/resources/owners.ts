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

/**
 * The owner IDs that name a parent, with its collection, in locking order: the customer before its
 * number or service, as every path in a customer's tree locks them (`applyLifecycleAction`).
 */
const parentColumns = [
  ['customerID', 'customers'],
  ['numberID', 'numbers'],
  ['serviceID', 'services'],
  ['tariffID', 'tariffs'],
  ['fixedFeeTariffID', 'fixedFeeTariffs'],
  ['destinationTableID', 'destinationTables'],
  ['carrierBillID', 'carrierBills'],
] as const

/** Whether a create's owner values name a parent to lock (a webhook's are values of its own). */
export const namesParent = (owner: Readonly<Record<string, unknown>>): boolean => parentColumns.some(([column]) => typeof owner[column] === 'string')

/**
 * Locks the parents a child is created under, in the create's transaction, so that a delete of
 * one cannot come between its check and the insert: a parent gone is `not_found` (contract 2),
 * never the database's foreign key error. A number, service or feature under a dropped customer,
 * number or service is refused (`state_not_allowed`): nothing is ever active under a dropped
 * parent (contract 5.2, 5.3), and a child created there would be billed every run. The lock of
 * the customer row also serialises the create with lifecycle actions in its tree, which lock it first.
 */
export async function lockOwners(store: Store, name: ResourceName, owner: Readonly<Record<string, unknown>>): Promise<void> {
  const live = name === 'numbers' || name === 'services' || name === 'features'
  for (const [column, parentName] of parentColumns) {
    const id = owner[column]
    if (typeof id !== 'string') continue
    const repo = store.repository(parentName)
    const parent = await repo.getForUpdate(id)
    if (!parent) throw notFound(repo.resource.singular, id)
    if (live && parent.isDropped === true) throw droppedOwner(name === 'numbers' ? 'a number' : name === 'services' ? 'a service' : 'a feature', repo.resource.singular, id)
  }
}

/**
 * Locks the fixed fee tariff a detail belongs to before the detail is locked for its PATCH or
 * DELETE: the tariff's own writes (its delete, a new detail) lock it and then write the features
 * it prices, as the detail's write does (tariff-price-freeze.ts), so every one takes the tariff first.
 */
export async function lockDetailTariff(store: Store, name: ResourceName, id: string): Promise<void> {
  if (name !== 'fixedFeeTariffDetails') return
  const detail = await store.repository('fixedFeeTariffDetails').get(id)
  if (typeof detail?.fixedFeeTariffID === 'string') await store.repository('fixedFeeTariffs').getForUpdate(detail.fixedFeeTariffID)
}

const droppedOwner = (what: string, parent: string, id: string) =>
  new BillingError(
    'state_not_allowed',
    `Cannot add ${what} to ${parent} ${id}: it is dropped`,
    `Reinstate the ${parent} first (POST ?action=reinstate), or add it to one that is not dropped.`,
  )
