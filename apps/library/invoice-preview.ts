import { previewInvoice, type InvoicePreview as CorePreview, type STORED_ONLY } from '../../core/billing/preview-invoice.js'
import { previewInvoiceDocument } from '../../core/billing/preview-invoice-document.js'
import type { ShownOf } from '../../core/fields/entity.js'
import type { Item } from '../../core/fields/item.js'
import type { PlatformContext } from '../../core/platform.js'
import { renderInvoice, type DocumentFormat } from '../../adapters/documents/render-invoice.js'
import { documentFormatOf } from './billing-api.js'
import { visibleItem } from './resource-api.js'

type StoredOnly = (typeof STORED_ONLY)[number]

/** A previewed invoice: the shown fields of an invoice, less those only a stored one has (ID, number, stamps, payment). */
export type PreviewInvoice = Omit<ShownOf<'invoices'>, StoredOnly>
/** A line of it: a transaction already in the ledger keeps its ID as `transactionID`; one the run would add has none. */
export type PreviewLine = Omit<ShownOf<'transactions'>, StoredOnly> & { readonly transactionID: string | null }

/** What `customers.previewInvoice` answers: the invoice and its lines as a read shows them, or none and why. */
export type InvoicePreview = CorePreview<PreviewInvoice, PreviewLine>

/** What `customers.previewInvoiceDocument` takes: the run's cutoff, the format, and the customer's short or long page list (default long). */
export interface PreviewDocumentOptions<F extends DocumentFormat = DocumentFormat> {
  readonly cutoffDate: string
  readonly format: F
  readonly pages?: 'short' | 'long'
}

/** The preview as the JSON of `GET /customers/<id>/invoicePreview` has it: internal fields of the invoice and its lines left out. */
export async function shownPreview(ctx: PlatformContext, id: string, options: { readonly cutoffDate: string }): Promise<InvoicePreview> {
  const { customerID, cutoffDate, invoice, lines, reason } = await previewInvoice(ctx, id, options)
  return {
    customerID,
    cutoffDate,
    invoice: invoice && (visibleItem('invoices', invoice as unknown as Item) as unknown as PreviewInvoice),
    lines: lines.map((line) => visibleItem('transactions', line as unknown as Item) as unknown as PreviewLine),
    reason,
  }
}

/** The previewed invoice's document, as `GET /customers/<id>/invoicePreview` answers it by `Accept`. */
export async function previewDocument(ctx: PlatformContext, id: string, options: PreviewDocumentOptions): Promise<Uint8Array | string> {
  const format = documentFormatOf(options)
  return renderInvoice(await previewInvoiceDocument(ctx, id, { cutoffDate: options.cutoffDate, pages: options.pages }), format)
}
