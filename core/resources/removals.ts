import { BillingError, notFound } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { ResourceName } from '../fields/resource.js'
import type { Store } from '../ports/store.js'
import type { ResourceContext } from './resources.js'
import { recordChanges } from '../history/record-change.js'

/**
 * What goes with an item when it is deleted, child tables first. Ledger rows, calls and
 * lifecycle bookkeeping join these lists as those tables arrive.
 */
export const dependents: Partial<Record<ResourceName, { resource: ResourceName; column: string }[]>> = {
  numbers: [{ resource: 'features', column: 'numberID' }],
  services: [{ resource: 'features', column: 'serviceID' }],
  tariffs: [{ resource: 'tariffDetails', column: 'tariffID' }],
  fixedFeeTariffs: [{ resource: 'fixedFeeTariffDetails', column: 'fixedFeeTariffID' }],
  webhooks: [{ resource: 'webhookDeliveries', column: 'webhookID' }],
  destinationTables: [{ resource: 'destinations', column: 'destinationTableID' }],
  carrierBills: [{ resource: 'carrierBillLines', column: 'carrierBillID' }],
}

/** Everything a purged customer takes with it (contract 5.6); shared contacts stay, unlinked. */
export const customerDependents: { resource: ResourceName; column: string }[] = [
  { resource: 'features', column: 'customerID' },
  { resource: 'numbers', column: 'customerID' },
  { resource: 'services', column: 'customerID' },
  { resource: 'customerContacts', column: 'customerID' },
  { resource: 'paymentLinks', column: 'customerID' },
  { resource: 'creditNotes', column: 'customerID' },
]

/**
 * Deletes an item and what depends on it, in one transaction; returns the item as it was.
 * A tariff still named by a customer, number, service or feature is refused with `in_use`.
 */
export async function deleteItem(ctx: ResourceContext, name: ResourceName, id: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const repo = store.repository(name)
    const item = await repo.getForUpdate(id)
    if (!item) throw notFound(repo.resource.singular, id)
    if (name === 'tariffs' || name === 'fixedFeeTariffs') await assertUnused(store, name, item)
    if (name === 'customerContacts') await store.contacts.unlinkAll({ contactID: id })
    for (const d of dependents[name] ?? []) await store.repository(d.resource).removeWhere([{ op: 'eq', column: d.column, value: id }])
    await repo.remove(id)
    await recordChanges(store, ctx.clock, [{ resource: repo.resource, action: 'delete', before: item, after: null }])
    return item
  })
}

async function assertUnused(store: Store, name: 'tariffs' | 'fixedFeeTariffs', item: Item): Promise<void> {
  if (typeof item.name !== 'string') return
  const user = await store.findReference(name, item.name)
  if (user) {
    const kind = name === 'tariffs' ? 'call tariff' : 'fixed fee tariff'
    throw new BillingError('in_use', `The ${kind} "${item.name}" is in use by ${user}`, `Point ${user} and any other users at another ${kind} first.`)
  }
}

/** Removes a customer and everything linked to it in one transaction (the purge job's work). */
export async function purgeCustomer(store: Store, customerID: string): Promise<boolean> {
  return store.transaction(async (tx) => {
    const customer = await tx.repository('customers').getForUpdate(customerID)
    if (!customer) return false
    await tx.contacts.unlinkAll({ customerID })
    await tx.lifecycle.removeCustomer(customerID)
    for (const d of customerDependents) {
      await tx.repository(d.resource).removeWhere([{ op: 'eq', column: d.column, value: customerID }])
    }
    await tx.repository('customers').remove(customerID)
    return true
  })
}

/**
 * The purge job: every customer whose deletion date has come is purged, one transaction each,
 * so a crash part-way leaves whole customers either purged or untouched for the next run.
 */
export async function purgeDueCustomers(
  ctx: Pick<ResourceContext, 'store' | 'clock'>,
  signal?: AbortSignal,
): Promise<{ purged: number }> {
  const today = ctx.clock.today()
  let purged = 0
  for (;;) {
    if (signal?.aborted) break
    const due = await ctx.store.repository('customers').list({
      where: [
        { op: 'isNull', column: 'deletionScheduledDate', value: false },
        { op: 'lte', column: 'deletionScheduledDate', value: today },
      ],
      limit: 100,
    })
    if (due.length === 0) break
    for (const customer of due) {
      if (signal?.aborted) break
      if (await purgeCustomer(ctx.store, customer.id)) purged += 1
    }
  }
  return { purged }
}
