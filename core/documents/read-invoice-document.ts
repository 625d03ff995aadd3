import type { PlatformContext } from '../platform.js'
import { parseBillLength } from './bill-pages.js'
import type { InvoiceDocument } from './document-model.js'
import { buildInvoiceDocument } from './invoice-document.js'
import { readInvoiceSources } from './invoice-sources.js'

/**
 * The document model of an invoice (contract 10.5) for `pages` (`short` or `long`, default
 * long; anything else → invalid_query): read through the store, built by the pure model.
 */
export async function readInvoiceDocument(ctx: Pick<PlatformContext, 'store' | 'presets'>, invoiceID: string, pages?: unknown): Promise<InvoiceDocument> {
  const sources = await readInvoiceSources(ctx.store, invoiceID)
  return buildInvoiceDocument(sources, { length: parseBillLength(pages), presets: ctx.presets })
}
