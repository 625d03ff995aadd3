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
 * Numbers the invoices raised before numbers existed, once, in ID order: migration 0022 left
 * 1..N of the counter to them (their number is their place among the unnumbered). Safe at
 * every start and in several processes at once: the lock lets one number them, the others then
 * find none.
 */
export async function numberEarlierInvoices(ctx: Pick<PlatformContext, 'presets' | 'store'>): Promise<number> {
  return ctx.store.transaction(async (store) => {
    await store.lock('invoice-numbers')
    const earlier = await store.invoiceNumbers.unnumbered()
    const format = ctx.presets.invoiceNumberFormat
    await store.invoiceNumbers.assign(earlier.map((invoice, i) => ({ id: invoice.id, invoiceNumber: formatInvoiceNumber(format, BigInt(i + 1), invoice.invoiceDate) })))
    return earlier.length
  })
}
