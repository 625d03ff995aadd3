import { BillingError, notFound } from '../errors.js'
import type { Item } from '../fields/item.js'
import type { ResourceName } from '../fields/resource.js'
import type { Store } from '../ports/store.js'
import type { ResourceContext } from './resources.js'
import { lockDetailTariff } from './owners.js'
import { historiedCollections, recordChanges, type Change } from '../history/record-change.js'
import { eventTypeOf } from '../fields/events.js'

/** Whether a collection's changes leave history or events, so its deleted rows are read first. */
const isRecorded = (name: ResourceName): boolean => (historiedCollections as readonly ResourceName[]).includes(name) || eventTypeOf(name, 'delete') !== null

/**
 * What goes with an item when it is deleted, child tables first.
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

/**
 * Everything a purged customer takes with it (contract 5.6): its items, ledger rows and calls,
 * and its invoices with their deliveries (the recipients' addresses), credit notes and payment
 * links. Shared contacts stay, unlinked.
 */
export const customerDependents: { resource: ResourceName; column: string }[] = [
  { resource: 'calls', column: 'customerID' },
  { resource: 'transactions', column: 'customerID' },
  { resource: 'invoiceDeliveries', column: 'customerID' },
  { resource: 'invoices', column: 'customerID' },
  { resource: 'features', column: 'customerID' },
  { resource: 'numbers', column: 'customerID' },
  { resource: 'services', column: 'customerID' },
  { resource: 'customerContacts', column: 'customerID' },
  { resource: 'paymentLinks', column: 'customerID' },
  { resource: 'creditNotes', column: 'customerID' },
]

/**
 * Deletes an item and what depends on it, in one transaction; returns the item as it was.
 * A tariff still named by a customer, number, service or feature, or the parent of another, is
 * refused with `in_use`.
 */
export async function deleteItem(ctx: ResourceContext, name: ResourceName, id: string): Promise<Item> {
  return ctx.store.transaction(async (store) => {
    const repo = store.repository(name)
    await lockDetailTariff(store, name, id)
    // A tariff locked before its users are looked for: a write naming it holds it until that
    // write commits (reference-checks.ts), so the look sees the write's item, or the write the delete.
    const item = await repo.getForUpdate(id)
    if (!item) throw notFound(repo.resource.singular, id)
    if (name === 'tariffs' || name === 'fixedFeeTariffs') await assertUnused(store, name, item)
    if (name === 'customerContacts') await store.contacts.unlinkAll({ contactID: id })
    await ctx.beforeWrite(store, { resource: name, before: item, values: null })
    const removed: Change[] = []
    const features = name === 'features' ? [id] : []
    for (const d of dependents[name] ?? []) {
      const rows = store.repository(d.resource)
      const going = isRecorded(d.resource) || d.resource === 'features' ? await rows.listIn(d.column, [id]) : []
      // A dependent of a recorded collection (a tariff's details, a number's features) is a delete of its own (contract 12).
      if (isRecorded(d.resource)) for (const row of going) removed.push({ resource: rows.resource, action: 'delete', before: row, after: null })
      if (d.resource === 'features') features.push(...going.map((row) => row.id))
      await rows.removeWhere([{ op: 'eq', column: d.column, value: id }])
    }
    // The carriers' bills stay, naming no deleted feature (contract 17.4), as after a purge; the
    // features' reconciled marks go with them.
    if (features.length > 0) {
      await store.carriers.removeFeatures(features, ctx.clock.now())
      await store.ledger.removeFeatures(features)
    }
    await repo.remove(id)
    await recordChanges(store, ctx.clock, [...removed, { resource: repo.resource, action: 'delete', before: item, after: null }])
    return item
  })
}

async function assertUnused(store: Store, name: 'tariffs' | 'fixedFeeTariffs', item: Item): Promise<void> {
  const kind = name === 'tariffs' ? 'call tariff' : 'fixed fee tariff'
  const user = typeof item.name === 'string' ? await store.findReference(name, item.name) : null
  if (user) throw new BillingError('in_use', `The ${kind} "${item.name}" is in use by ${user}`, `Point ${user} and any other users at another ${kind} first.`)
  // A parent lends its rates to its children (contract 17.7): gone, they would price nothing it lent.
  // Read as rating reads it, trimmed (parent-tariffs.ts); tariffs are few.
  const field = name === 'tariffs' ? 'parentTariff' : 'parentFixedFeeTariff'
  const tariffs = await store.repository(name).list({ where: [], limit: Number.MAX_SAFE_INTEGER })
  const child = tariffs.find((t) => String(t[field] ?? '').trim() === item.id)
  if (child) {
    throw new BillingError('in_use', `The ${kind} ${item.id} is in use by ${kind} ${child.id} (${field})`, `Give ${kind} ${child.id} another ${field}, or none, first.`)
  }
}

/**
 * Removes a customer and everything linked to it in one transaction (the purge job's work), and
 * records the removal: one `delete` of the customer by the worker (contract 12), not one per row
 * it took, which the customer's own history already lists.
 */
export async function purgeCustomer(ctx: Pick<ResourceContext, 'store' | 'clock'>, customerID: string): Promise<boolean> {
  return ctx.store.transaction(async (tx) => {
    const customers = tx.repository('customers')
    const customer = await customers.getForUpdate(customerID)
    if (!customer) return false
    await tx.contacts.unlinkAll({ customerID })
    await tx.lifecycle.removeCustomer(customerID)
    await tx.customerRemains.removeCustomer(customerID, ctx.clock.now())
    for (const d of customerDependents) {
      await tx.repository(d.resource).removeWhere([{ op: 'eq', column: d.column, value: customerID }])
    }
    await customers.remove(customerID)
    // Only what names the account: the full former values would put back into history and events
    // the personal data the purge exists to remove.
    const named: Item = { id: customer.id, accountNumber: customer.accountNumber }
    await recordChanges(tx, ctx.clock, [{ resource: customers.resource, action: 'delete', before: named, after: null }])
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
      if (await purgeCustomer(ctx, customer.id)) purged += 1
    }
  }
  return { purged }
}
