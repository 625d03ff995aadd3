import type { InvoiceDocument } from '../../core/documents/document-model.js'
import { renderInvoiceHtml } from './html-invoice.js'
import { renderInvoicePdf } from './pdf-invoice.js'

/** The formats an invoice document is rendered in. */
export const documentFormats = ['pdf', 'html'] as const
export type DocumentFormat = (typeof documentFormats)[number]

/** Media type of each format. */
export const mediaTypeOf: Record<DocumentFormat, string> = { pdf: 'application/pdf', html: 'text/html; charset=utf-8' }

/** The document in a format: PDF bytes, or the HTML page's text. */
export function renderInvoice(doc: InvoiceDocument, format: 'pdf'): Promise<Uint8Array>
export function renderInvoice(doc: InvoiceDocument, format: 'html'): Promise<string>
export function renderInvoice(doc: InvoiceDocument, format: DocumentFormat): Promise<Uint8Array | string>
export async function renderInvoice(doc: InvoiceDocument, format: DocumentFormat): Promise<Uint8Array | string> {
  return format === 'pdf' ? renderInvoicePdf(doc) : renderInvoiceHtml(doc)
}
