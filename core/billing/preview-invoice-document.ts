import type { InvoiceDocument } from '../documents/document-model.js'
import { readInvoiceDocument } from '../documents/read-invoice-document.js'
import { BillingError } from '../errors.js'
import type { PlatformContext } from '../platform.js'
import { previewInvoice } from './preview-invoice.js'

/**
 * The document of the invoice a run with `cutoffDate` would raise for the customer now (contract
 * 16.1), read inside the preview's rehearsal before it is undone; `pages` as an invoice's
 * document takes it. `not_found` when no invoice would be raised: there is no document to show.
 */
export async function previewInvoiceDocument(ctx: PlatformContext, customerID: string, input: { readonly cutoffDate?: unknown; readonly pages?: unknown }): Promise<InvoiceDocument> {
  const preview = await previewInvoice(ctx, customerID, { cutoffDate: input.cutoffDate }, (inner, invoiceID) => readInvoiceDocument(inner, invoiceID, input.pages))
  if (!preview.extra) {
    throw new BillingError('not_found', `Customer ${customerID} would get no invoice from a run with cutoff ${preview.cutoffDate}: ${preview.reason}`, 'Preview it as data (JSON) to see why, or try a later cutoffDate.')
  }
  return preview.extra
}
