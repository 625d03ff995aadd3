import { buildCreditNoteDocument } from '../documents/credit-note-document.js'
import type { InvoiceDocument } from '../documents/document-model.js'
import { notFound } from '../errors.js'
import type { PlatformContext } from '../platform.js'

/** A credit note's document (contract 15.3), read through the store and built by the pure model. */
export async function readCreditNoteDocument(ctx: Pick<PlatformContext, 'store' | 'presets'>, creditNoteID: string): Promise<InvoiceDocument> {
  const creditNote = await ctx.store.repository('creditNotes').get(creditNoteID)
  if (!creditNote) throw notFound('credit note', creditNoteID)
  const [invoice, customer, credits] = await Promise.all([
    ctx.store.repository('invoices').get(creditNote.invoiceID!),
    ctx.store.repository('customers').get(creditNote.customerID!),
    ctx.store.repository('transactions').listIn('creditNoteID', [creditNote.id]),
  ])
  if (!invoice) throw notFound('invoice', creditNote.invoiceID!)
  if (!customer) throw notFound('customer', creditNote.customerID!)
  const creditedIDs = credits.map((c) => c.creditedTransactionID).filter((id): id is string => id !== null)
  const credited = new Map((creditedIDs.length ? await ctx.store.repository('transactions').listIn('id', creditedIDs) : []).map((t) => [t.id, t]))
  const lines = credits.map((credit) => ({ credit, credited: (credit.creditedTransactionID && credited.get(credit.creditedTransactionID)) || null }))
  return buildCreditNoteDocument({ creditNote, invoice, customer, lines }, ctx.presets)
}
