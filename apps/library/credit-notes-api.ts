import { issueCreditNote } from '../../core/credit-notes/issue-credit-note.js'
import { readCreditNoteDocument } from '../../core/credit-notes/read-credit-note-document.js'
import type { ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { getItem } from '../../core/resources/resources.js'
import { parentScope } from '../../core/resources/scopes.js'
import { renderInvoice, type DocumentFormat } from '../../adapters/documents/render-invoice.js'
import { documentFormatOf, ownerOf } from './billing-api.js'
import { readApi, readPage, resourceOf, shown, shownPage, toPage, type ListParams, type Page, type ReadApi } from './resource-api.js'

/** An amount as the API's JSON takes it: a number, or a decimal string with at most 4 decimals. */
type Amount = number | string

/**
 * What `creditNotes.issue` takes (contract 15.3): a `reason` and either `lines` (each a
 * `transactionID` of the invoice and an optional net `amount`, the rest of the line when left
 * out) or a net `amount` spread over the invoice's lines pro rata, not both.
 */
export type CreditNoteRequest =
  | { readonly reason: string; readonly lines: readonly { readonly transactionID: string; readonly amount?: Amount }[]; readonly amount?: undefined }
  | { readonly reason: string; readonly amount: Amount; readonly lines?: undefined }

/** What `customers.refund` takes: the amount (at most the credit held), its date (default today) and a reference. */
export interface RefundInput {
  readonly amount: Amount
  readonly date?: string | null
  readonly reference?: string | null
}

/** Credit notes (contract 15.3): read-only once issued; a mistake is corrected by another document. */
export interface CreditNotesApi extends ReadApi<'creditNotes'> {
  /**
   * Issues a credit note against a raised invoice, as `POST /invoices/<id>/creditNotes/`: one
   * negative `Credit Note` line per credited line at its VAT rate, allocated to the invoice first,
   * the rest held credit. A line credited beyond what is left of it is invalid_field naming it; a
   * draft invoice is state_not_allowed.
   */
  issue(invoiceID: string, body: CreditNoteRequest): Promise<ShownOf<'creditNotes'>>
  /** One page of the credit notes of a customer or of an invoice. */
  listOf(owner: { readonly customerID: string } | { readonly invoiceID: string }, params?: ListParams<'creditNotes'>): Promise<Page<ShownOf<'creditNotes'>>>
  /**
   * The credit note's document, as `GET /creditNotes/<id>` answers it by `Accept`: a PDF's
   * bytes, or one self-contained HTML page. A format other than pdf or html is invalid_query.
   */
  document(id: string, options: { readonly format: 'pdf' }): Promise<Uint8Array>
  document(id: string, options: { readonly format: 'html' }): Promise<string>
  document(id: string, options: { readonly format: DocumentFormat }): Promise<Uint8Array | string>
}

/** The scoped lists of credit notes: `GET /customers/<id>/creditNotes/` and `/invoices/<id>/creditNotes/`. */
const creditNoteParents = { customerID: 'customers', invoiceID: 'invoices' } as const

export function creditNotesApi(ctx: PlatformContext): CreditNotesApi {
  const document = async (id: string, options: { readonly format: DocumentFormat }) => {
    const format = documentFormatOf(options)
    return renderInvoice(await readCreditNoteDocument(ctx, id), format)
  }
  return {
    ...readApi(ctx, 'creditNotes'),
    // The invoice first, then the body (contract 2's order), as the route does.
    issue: (invoiceID, body) => shown('creditNotes', getItem(ctx, resourceOf(ctx, 'invoices'), invoiceID).then(() => issueCreditNote(ctx, invoiceID, body))),
    listOf: async (owner, params) => {
      const [column, id] = ownerOf(owner, creditNoteParents, 'Credit notes')
      return shownPage('creditNotes', toPage(await readPage(ctx, 'creditNotes', params, { scope: () => parentScope(ctx.store, creditNoteParents[column], id, column) })))
    },
    document: document as CreditNotesApi['document'],
  }
}
