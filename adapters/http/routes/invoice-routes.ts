import type { H3Event } from 'h3'
import Negotiator from 'negotiator'
import { FastResponse } from 'srvx'
import { parseBillLength } from '../../../core/documents/bill-pages.js'
import { readInvoiceDocument } from '../../../core/documents/read-invoice-document.js'
import { notFound } from '../../../core/errors.js'
import type { Resource } from '../../../core/fields/resource.js'
import { getWireItem } from '../../../core/resources/resources.js'
import { mediaTypeOf, renderInvoice, type DocumentFormat } from '../../documents/render-invoice.js'
import { jsonItem, requestIdOf } from '../respond.js'
import type { Route } from '../route.js'
import { readQuery } from '../query.js'
import { queryAfterItem } from './resource-routes.js'
import { previewInvoice, STORED_ONLY } from '../../../core/billing/preview-invoice.js'
import { previewInvoiceDocument } from '../../../core/billing/preview-invoice-document.js'
import { toWire } from '../../../core/fields/wire.js'
import type { Item } from '../../../core/fields/item.js'
import { json } from '../respond.js'

/** What GET /invoices/<id> answers with, best first on a tie: JSON stays the default (contract 10.5). */
const offered = ['application/json', 'application/pdf', 'text/html'] as const
const formatOf: Record<(typeof offered)[number], DocumentFormat | 'json'> = { 'application/json': 'json', 'application/pdf': 'pdf', 'text/html': 'html' }

/** The format the request's `Accept` prefers; JSON without one, for `*\/*`, or when it names none of ours. */
export function negotiateInvoiceFormat(accept: string | null): DocumentFormat | 'json' {
  if (!accept) return 'json'
  const best = new Negotiator({ headers: { accept } }).mediaType([...offered]) as (typeof offered)[number] | undefined
  return best ? formatOf[best] : 'json'
}

/** The `pages` query parameter (its only one), given at most once. */
const pagesParam = (event: H3Event): string | undefined => readQuery(event, ['pages']).get('pages') ?? undefined

/**
 * `GET /invoices/<id>`: the invoice as JSON, or with `Accept: application/pdf` / `text/html`
 * its document (contract 10.5), `?pages=short|long` choosing the customer's page list.
 */
export function invoiceRoute(invoices: Resource): Route {
  return {
    method: 'GET',
    path: '/invoices/:id',
    doc: {
      summary: 'Fetch one invoice: JSON, or its document as a PDF (Accept: application/pdf) or an HTML page (Accept: text/html)',
      resource: 'invoices',
      kind: 'get',
      query: ['pages'],
      alternatives: {
        'application/pdf': 'The invoice document as a PDF (A4, fonts embedded)',
        'text/html': 'The invoice document as one self-contained HTML page',
      },
    },
    async handler(event, ctx) {
      const format = negotiateInvoiceFormat(event.req.headers.get('accept'))
      if (format === 'json') {
        const item = await getWireItem(ctx.platform, invoices, ctx.params.id)
        parseBillLength(pagesParam(event))
        return jsonItem(event, item.json, { vary: 'Accept' })
      }
      const doc = await readInvoiceDocument(ctx.platform, ctx.params.id, pagesParam(event))
      return documentResponse(event, await renderInvoice(doc, format), format, `invoice-${ctx.params.id}`)
    },
  }
}

/** A document's answer, by format, as GET /invoices/<id> gives it (and a credit note's, and a preview's). */
export function documentResponse(event: H3Event, body: string | Uint8Array, format: DocumentFormat, name: string): Response {
  return new FastResponse(body as string | Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': mediaTypeOf[format],
      'content-disposition': `inline; filename="${name}.${format}"`,
      vary: 'Accept',
      'x-request-id': requestIdOf(event),
    },
  })
}

/** A wire item without the fields only a stored invoice or transaction has. */
function previewWire(resource: Resource, item: object): Record<string, unknown> {
  const wire = toWire(resource, item as Item)
  for (const name of STORED_ONLY) delete wire[name]
  return wire
}

/**
 * `GET /customers/<id>/invoicePreview?cutoffDate=`: the invoice a run with that cutoff would raise
 * for the customer now (contract 16.1), as JSON (`invoice`, `lines`, or `reason` when none would
 * be raised), or its document as a PDF or HTML page by `Accept`; nothing is written.
 */
export function invoicePreviewRoute(invoices: Resource, transactions: Resource): Route {
  return {
    method: 'GET',
    path: '/customers/:id/invoicePreview',
    doc: {
      summary: 'Preview the invoice a billing run with ?cutoffDate= would raise for the customer now (JSON, PDF or HTML by Accept); nothing is written',
      resource: 'invoices',
      kind: 'other',
      query: ['cutoffDate', 'pages'],
      alternatives: {
        'application/pdf': 'The previewed invoice document as a PDF',
        'text/html': 'The previewed invoice document as one HTML page',
      },
    },
    async handler(event, ctx) {
      const customerExists = async () => {
        if (!(await ctx.platform.store.repository('customers').get(ctx.params.id))) throw notFound('customer', ctx.params.id)
      }
      const query = await queryAfterItem(() => readQuery(event, ['cutoffDate', 'pages']), customerExists)
      const format = negotiateInvoiceFormat(event.req.headers.get('accept'))
      const pages = query.get('pages') ?? undefined
      const cutoffDate = query.get('cutoffDate') ?? undefined
      if (format === 'json') {
        await queryAfterItem(() => parseBillLength(pages), customerExists)
        const preview = await previewInvoice(ctx.platform, ctx.params.id, { cutoffDate })
        return json(
          event,
          200,
          {
            customerID: preview.customerID,
            cutoffDate: preview.cutoffDate,
            invoice: preview.invoice && previewWire(invoices, preview.invoice),
            lines: preview.lines.map((line) => ({ ...previewWire(transactions, line), transactionID: line.transactionID })),
            reason: preview.reason,
          },
          { vary: 'Accept' },
        )
      }
      const doc = await previewInvoiceDocument(ctx.platform, ctx.params.id, { cutoffDate, pages })
      return documentResponse(event, await renderInvoice(doc, format), format, `invoice-preview-${ctx.params.id}`)
    },
  }
}
