import type { Stamp } from '../dates/stamp.js'
import type { Invoice } from '../fields/entity.js'
import type { Store } from '../ports/store.js'
import type { ContactCopy } from '../ports/invoice-outbox.js'
import { planDeliveries, type DeliveryCustomer } from './plan-deliveries.js'

/**
 * Records the deliveries of invoices just raised, in the transaction that raises them (contract
 * 14.2: an outbox, so a raised invoice cannot miss its sending and a rolled-back one sends
 * nothing). The contacts' copies are read for the batch at once.
 */
export async function recordDeliveries(store: Store, invoices: readonly Invoice[], customers: ReadonlyMap<string, DeliveryCustomer>, now: Stamp): Promise<void> {
  const sendable = invoices.filter((i) => !i.suppressed)
  if (sendable.length === 0) return
  const contacts = new Map<string, ContactCopy[]>()
  for (const c of await store.invoiceOutbox.contactCopies([...new Set(sendable.map((i) => i.customerID!))])) {
    const list = contacts.get(c.customerID)
    if (list) list.push(c)
    else contacts.set(c.customerID, [c])
  }
  const deliveries = sendable.flatMap((invoice) => {
    const customer = customers.get(invoice.customerID!)
    return customer ? planDeliveries(invoice, customer, contacts.get(customer.id) ?? []) : []
  })
  if (deliveries.length) await store.invoiceOutbox.record(deliveries, now)
}
