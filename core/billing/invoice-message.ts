import type { Customer } from '../fields/entity.js'
import { recordChanges, type Change } from '../history/record-change.js'
import type { PlatformContext } from '../platform.js'
import type { Store } from '../ports/store.js'

/** The message an invoice is raised with (contract 10.5): the customer's next message, else its default. */
export const invoiceMessageOf = (customer: Pick<Customer, 'nextInvoiceMessage' | 'defaultInvoiceMessage'>): string | null =>
  customer.nextInvoiceMessage ?? customer.defaultInvoiceMessage ?? null

/**
 * A next invoice message goes on one invoice only: cleared once an invoice is raised with
 * it, recorded in history like any change (few customers have one, so one by one is cheap).
 * A run reads its customers beside its transaction, before it writes: a message set since then
 * went on no invoice, and stays for the next.
 */
export async function clearNextMessages(ctx: PlatformContext, store: Store, used: readonly { readonly customerID: string; readonly message: string }[]): Promise<void> {
  const changes: Change[] = []
  const customers = store.repository('customers')
  for (const { customerID, message } of used) {
    const before = await customers.get(customerID)
    if (before?.nextInvoiceMessage !== message) continue
    const after = await customers.update(customerID, { nextInvoiceMessage: null })
    if (after) changes.push({ resource: ctx.resources.get('customers')!, action: 'update', before, after })
  }
  await recordChanges(store, ctx.clock, changes)
}
