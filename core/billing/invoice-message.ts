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
 */
export async function clearNextMessages(ctx: PlatformContext, store: Store, customerIDs: readonly string[]): Promise<void> {
  const changes: Change[] = []
  const customers = store.repository('customers')
  for (const id of customerIDs) {
    const before = await customers.get(id)
    const after = await customers.update(id, { nextInvoiceMessage: null })
    if (before && after) changes.push({ resource: ctx.resources.get('customers')!, action: 'update', before, after })
  }
  await recordChanges(store, ctx.clock, changes)
}

