import { issueCreditNote } from '../../../core/credit-notes/issue-credit-note.js'
import { readCreditNoteDocument } from '../../../core/credit-notes/read-credit-note-document.js'
import { createRefund } from '../../../core/credit-notes/refunds.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem, getWireItem } from '../../../core/resources/resources.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { renderInvoice } from '../../documents/render-invoice.js'
import { readJsonObject } from '../body.js'
import { apiPath } from '../mount-prefix.js'
import { json, jsonItem } from '../respond.js'
import type { Route } from '../route.js'
import { documentResponse, negotiateInvoiceFormat } from './invoice-routes.js'
import { listRoute } from './resource-routes.js'
import { readQuery } from '../query.js'

const money = { oneOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d{1,4})?$' }], description: 'an amount: a JSON number or a decimal string, at most 4 decimals' }
const creditNoteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { type: 'string', minLength: 1, maxLength: 1000 },
    lines: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', additionalProperties: false, required: ['transactionID'], properties: { transactionID: { type: 'string' }, amount: { ...money, description: 'net to credit of the line; left out: all that is left of it' } } },
    },
    amount: { ...money, description: 'net to credit, spread over the lines pro rata (give lines or amount, not both)' },
  },
}
const refundBody = {
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: { amount: { ...money, description: 'at most the credit held' }, date: { type: 'string', format: 'date' }, reference: { type: 'string', maxLength: 200 } },
}

/** Credit notes and refunds (contract 15.3): every route needs expert level 3. */
export function creditNoteRoutes(creditNotes: Resource, invoices: Resource, customers: Resource, transactions: Resource): Route[] {
  const routes: Route[] = [
    listRoute(creditNotes, { path: '/creditNotes', summary: 'List credit notes' }),
    listRoute(creditNotes, {
      path: '/customers/:id/creditNotes',
      summary: "List a customer's credit notes",
      scope: (ctx) => parentScope(ctx.platform.store, 'customers', ctx.params.id, 'customerID'),
    }),
    listRoute(creditNotes, {
      path: '/invoices/:id/creditNotes',
      summary: "List an invoice's credit notes",
      scope: (ctx) => parentScope(ctx.platform.store, 'invoices', ctx.params.id, 'invoiceID'),
    }),
    {
      method: 'GET',
      path: '/creditNotes/:id',
      doc: {
        summary: 'Fetch one credit note: JSON, or its document as a PDF (Accept: application/pdf) or an HTML page (Accept: text/html)',
        resource: 'creditNotes',
        kind: 'get',
        alternatives: {
          'application/pdf': 'The credit note document as a PDF (A4, fonts embedded)',
          'text/html': 'The credit note document as one self-contained HTML page',
        },
      },
      async handler(event, ctx) {
        const format = negotiateInvoiceFormat(event.req.headers.get('accept'))
        if (format === 'json') {
          const item = await getWireItem(ctx.platform, creditNotes, ctx.params.id)
          readQuery(event)
          return jsonItem(event, item.json, { vary: 'Accept' })
        }
        const doc = await readCreditNoteDocument(ctx.platform, ctx.params.id)
        readQuery(event)
        return documentResponse(event, await renderInvoice(doc, format), format, `credit-note-${ctx.params.id}`)
      },
    },
    {
      method: 'POST',
      path: '/invoices/:id/creditNotes',
      doc: {
        summary: 'Issue a credit note: {"reason", "lines": [{"transactionID", "amount"?}]} or {"reason", "amount"} spread pro rata by net',
        resource: 'creditNotes',
        kind: 'create',
        body: creditNoteBody,
        errors: [400502],
      },
      async handler(event, ctx) {
        await getItem(ctx.platform, invoices, ctx.params.id)
        readQuery(event)
        const note = await issueCreditNote(ctx.platform, ctx.params.id, await readJsonObject(event))
        return json(event, 201, toWire(creditNotes, note), { location: apiPath(event, `/creditNotes/${note.id}`) })
      },
    },
    {
      method: 'POST',
      path: '/customers/:id/refunds',
      doc: { summary: 'Pay held credit back: {"amount", "date"?, "reference"?} makes a Refund transaction; never more than the credit held', resource: 'transactions', kind: 'create', body: refundBody },
      async handler(event, ctx) {
        await getItem(ctx.platform, customers, ctx.params.id)
        readQuery(event)
        const refund = await createRefund(ctx.platform, ctx.params.id, await readJsonObject(event))
        return json(event, 201, toWire(transactions, refund), { location: apiPath(event, `/transactions/${refund.id}`) })
      },
    },
  ]
  return routes.map((route) => ({ ...route, access: 'expertLevel3' as const }))
}
