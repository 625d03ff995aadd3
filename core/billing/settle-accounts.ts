import type { DateOnly } from '../dates/date-only.js'
import type { Store } from '../ports/store.js'
import { refreshCreditAlerts } from '../credit/credit-alerts.js'
import type { CreditLimitActing } from '../credit/credit-limit-actions.js'
import type { Stamp } from '../dates/stamp.js'
import { allocateAccount } from './allocation.js'
import type { AccountAllocation } from '../ports/receivables.js'
import type { Account } from '../ports/receivables.js'
import type { InvoiceStatus } from '../presets/engine-lists.js'

/**
 * Allocates the payments and credits of each customer to its invoices again, keeping what is
 * allocated (contract 10.3, 17.6), and stores the result: after a payment, a write-off, an invoice raised with
 * held credit or a credit invoice, and when invoices become overdue. Callers hold the customers'
 * rows (a transaction with the customer locked) or run inside the billing job. With `act`, their
 * credit alerts are measured and acted on (contract 15.2); `alerts: false` leaves them to the caller.
 * Returns each of their invoices' status as allocated (a run announces by it what it raised overdue).
 */
export async function settleAccounts(
  store: Store,
  customerIDs: readonly string[],
  today: DateOnly,
  now: string,
  options: { readonly act: CreditLimitActing } | { readonly alerts: false },
): Promise<ReadonlyMap<string, InvoiceStatus>> {
  const statuses = new Map<string, InvoiceStatus>()
  if (customerIDs.length === 0) return statuses
  const accounts = await store.receivables.accounts(customerIDs)
  const entries = customerIDs.map((customerID) => {
    const before = accounts.get(customerID) ?? { invoices: [], settlements: [], allocations: [] }
    return { customerID, before, allocation: allocateAccount(before.invoices, before.settlements, today, before.allocations) }
  })
  await store.receivables.saveAllocations(entries, now)
  await announceStatusChanges(store, entries, now as Stamp)
  // Payments and overdue invoices change the balance and overdue amount that alerts measure.
  if ('act' in options) await refreshCreditAlerts(store, customerIDs, now as Stamp, { act: options.act })
  for (const { allocation } of entries) for (const [id, invoice] of allocation.invoices) statuses.set(id, invoice.status)
  return statuses
}

/**
 * An invoice that allocation has just paid, or that has just become overdue, is announced
 * (contract 12: `invoice.paid`, `invoice.overdue`), with the invoice as it now reads. The events
 * are written by the database from the stored rows, so a run's batch costs one statement each.
 */
async function announceStatusChanges(store: Store, entries: readonly { readonly before: Account; readonly allocation: AccountAllocation }[], now: Stamp): Promise<void> {
  const paid: string[] = []
  const overdue: string[] = []
  for (const { before, allocation } of entries) {
    for (const invoice of before.invoices) {
      const status = allocation.invoices.get(invoice.id)?.status
      if (status === invoice.status) continue
      if (status === 'Paid') paid.push(invoice.id)
      else if (status === 'Overdue') overdue.push(invoice.id)
    }
  }
  const invoices = store.repository('invoices').resource
  if (paid.length) await store.changes.appendEventsOf('invoice.paid', invoices, { id: paid }, now)
  if (overdue.length) await store.changes.appendEventsOf('invoice.overdue', invoices, { id: overdue }, now)
}

/**
 * The daily credit-control job: moves invoices whose overdue date has passed to `Overdue`, a page
 * of customers at a time, and measures again the customers whose unsent-invoices alert may
 * have lapsed (invoices leave the last 7 days with no write). A customer passing
 * `creditLimitOverdue` here is acted on with its alert, in the page's transaction.
 */
export async function markOverdue(ctx: CreditLimitActing & { readonly store: Store }, today: DateOnly, now: string, signal?: AbortSignal): Promise<number> {
  const { store } = ctx
  let customers = 0
  for (;;) {
    if (signal?.aborted) return customers
    const page = await store.transaction(async (tx) => {
      const ids = await tx.receivables.newlyOverdue(today, 200)
      await tx.repository('customers').lockIds(ids)
      await settleAccounts(tx, ids, today, now, { act: ctx })
      return ids.length
    })
    customers += page
    if (page < 200) break
  }
  let after = '0'
  for (;;) {
    if (signal?.aborted) return customers
    const page = await store.transaction(async (tx) => {
      const ids = (await tx.repository('customers').list({ where: [{ op: 'hasName', column: 'creditAlerts', value: 'creditLimitUnsent' }], idAfter: after, limit: 200, storedOnly: true })).map((c) => c.id)
      await tx.repository('customers').lockIds(ids)
      await refreshCreditAlerts(tx, ids, now as Stamp, { candidates: true, act: ctx })
      return ids
    })
    if (page.length < 200) return customers
    after = page.at(-1)!
  }
}
