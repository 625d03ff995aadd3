import type { H3Event } from 'h3'
import Negotiator from 'negotiator'
import { FastResponse } from 'srvx'
import { parseBillLength } from '../../../core/documents/bill-pages.js'
import { readInvoiceDocument } from '../../../core/documents/read-invoice-document.js'
import { BillingError } from '../../../core/errors.js'
import type { Resource } from '../../../core/fields/resource.js'
import { getWireItem } from '../../../core/resources/resources.js'
import { mediaTypeOf, renderInvoice, type DocumentFormat } from '../../documents/render-invoice.js'
import { jsonItem, requestIdOf } from '../respond.js'
import type { Route } from '../route.js'
import { assertNoQuery } from './resource-routes.js'

/** What GET /invoices/<id> answers with, best first on a tie: JSON stays the default (contract 10.5). */
const offered = ['application/json', 'application/pdf', 'text/html'] as const
const formatOf: Record<(typeof offered)[number], DocumentFormat | 'json'> = { 'application/json': 'json', 'application/pdf': 'pdf', 'text/html': 'html' }

/** The format the request's `Accept` prefers; JSON without one, for `*\/*`, or when it names none of ours. */
export function negotiateInvoiceFormat(accept: string | null): DocumentFormat | 'json' {
  if (!accept) return 'json'
  const best = new Negotiator({ headers: { accept } }).mediaType([...offered]) as (typeof offered)[number] | undefined
  return best ? formatOf[best] : 'json'
}

/** The `pages` query parameter, given at most once. */
function pagesParam(event: H3Event): string | undefined {
  const all = event.url.searchParams.getAll('pages')
  if (all.length > 1) throw new BillingError('invalid_query', 'pages is given more than once', 'Give pages=short or pages=long once.')
  return all[0]
}

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
        assertNoQuery(event, ['pages'])
        parseBillLength(pagesParam(event))
        return jsonItem(event, item.json, { vary: 'Accept' })
      }
      const doc = await readInvoiceDocument(ctx.platform, ctx.params.id, (assertNoQuery(event, ['pages']), pagesParam(event)))
      const body = await renderInvoice(doc, format)
      return new FastResponse(body as string | Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': mediaTypeOf[format],
          'content-disposition': `inline; filename="invoice-${ctx.params.id}.${format}"`,
          vary: 'Accept',
          'x-request-id': requestIdOf(event),
        },
      })
    },
  }
}
