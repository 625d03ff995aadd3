import type { Resource } from '../../../core/fields/resource.js'
import { parentScope } from '../../../core/resources/scopes.js'
import type { Route } from '../route.js'
import { listRoute } from './resource-routes.js'
import { FastResponse } from 'srvx'
import { readPrintFile } from '../../../core/delivery/print-file.js'
import { renderInvoicesPdf } from '../../documents/pdf-invoice.js'
import { requestIdOf } from '../respond.js'
import { readQuery } from '../query.js'

/** An invoice's deliveries (contract 14.2): one per recipient and channel, with their attempts. */
export function deliveryRoutes(deliveries: Resource): Route[] {
  return [
    listRoute(deliveries, {
      path: '/invoices/:id/deliveries',
      summary: "List an invoice's deliveries (email, post, fax), each with its status and attempts",
      scope: (ctx) => parentScope(ctx.platform.store, 'invoices', ctx.params.id, 'invoiceID'),
    }),
    printRoute(),
  ]
}

/**
 * `GET /billingRuns/<id>/print`: one PDF of the run's invoices for customers with a post bill
 * type, in account number order, each from a new sheet with its address in the envelope window.
 */
export function printRoute(): Route {
  return {
    method: 'GET',
    path: '/billingRuns/:id/print',
    doc: {
      summary: "The run's print file: one PDF of the invoices of customers with a postBillType, in account number order",
      resource: 'billingRuns',
      kind: 'other',
      contentType: 'application/pdf',
    },
    async handler(event, ctx) {
      readQuery(event)
      const docs = await readPrintFile(ctx.platform, ctx.params.id)
      const body = await renderInvoicesPdf(docs, { title: `Billing run ${ctx.params.id} print file`, sheets: true })
      return new FastResponse(body as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': `attachment; filename="billing-run-${ctx.params.id}-print.pdf"`,
          'x-request-id': requestIdOf(event),
        },
      })
    },
  }
}
