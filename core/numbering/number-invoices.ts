import type { NewInvoice } from '../ports/ledger.js'
import type { Store } from '../ports/store.js'
import type { PlatformContext } from '../platform.js'
import { formatInvoiceNumber } from './invoice-number.js'

/**
 * A batch's invoices with their numbers (contract 14.1), taken from the counter in the batch's
 * transaction: one statement per batch, and the numbers go back if the transaction rolls back.
 */
export async function numberInvoices(ctx: Pick<PlatformContext, 'presets'>, store: Store, invoices: readonly NewInvoice[]): Promise<NewInvoice[]> {
  if (invoices.length === 0) return []
  const first = await store.invoiceNumbers.take(invoices.length)
  const format = ctx.presets.invoiceNumberFormat
  return invoices.map((invoice, i) => ({
    ...invoice,
    values: { ...invoice.values, invoiceNumber: formatInvoiceNumber(format, first + BigInt(i), invoice.values.invoiceDate!) },
  }))
}

/**
 * Numbers the invoices raised before numbers existed (contract 14.1), once, in ID order, from
 * the counter: at the first start after the upgrade nothing has taken a number yet (every
 * process does this before it bills), so they are 1..N; the same for an archive from before
 * the numbers, restored. They count as sent on their invoice date: they went out some other way,
 * and `creditLimitUnsent` would otherwise count a customer's whole history. Safe at every start
 * and in several processes at once: the lock lets one number them, the others then find none.
 */
export async function numberEarlierInvoices(ctx: Pick<PlatformContext, 'presets' | 'store'>): Promise<number> {
  const unnumbered = await ctx.store.invoiceNumbers.unnumbered()
  if (unnumbered.length === 0) return 0
  return ctx.store.transaction(async (store) => {
    await store.lock('invoice-numbers')
    const earlier = await store.invoiceNumbers.unnumbered()
    if (earlier.length === 0) return 0
    const first = await store.invoiceNumbers.take(earlier.length)
    const format = ctx.presets.invoiceNumberFormat
    await store.invoiceNumbers.assignEarlier(earlier.map((invoice, i) => ({ id: invoice.id, invoiceNumber: formatInvoiceNumber(format, first + BigInt(i), invoice.invoiceDate) })))
    return earlier.length
  })
}
