import { createBillingRun, deleteBillingRun, updateBillingRun } from '../../core/billing/billing-runs.js'
import { addManualTransaction } from '../../core/billing/manual-transactions.js'
import { runNextBillingRun, type RunOptions, type RunOutcome } from '../../core/billing/run-billing.js'
import type { InputOf, PatchOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import type { ResourceName } from '../../core/fields/resource.js'
import { parentScope } from '../../core/resources/scopes.js'
import { readInvoiceDocument } from '../../core/documents/read-invoice-document.js'
import { BillingError, quoted } from '../../core/errors.js'
import { documentFormats, renderInvoice, type DocumentFormat } from '../../adapters/documents/render-invoice.js'
import { actionRunner, readApi, readPage, shown, shownPage, toPage, type ActionRunner, type ListParams, type Page, type ReadApi } from './resource-api.js'
import { readPrintFile } from '../../core/delivery/print-file.js'
import { renderInvoicesPdf } from '../../adapters/documents/pdf-invoice.js'

/** The ledger: manual transactions, and every charge the billing writes. */
export interface TransactionsApi extends ReadApi<'transactions'> {
  /**
   * Adds a manual transaction (a one-off charge, a credit or a payment) to a customer: the amount
   * rounded half-up to pence, credits stored negative, no VAT on a payment (contract 9.1).
   */
  add(customerID: string, body: InputOf<'transactions'>): Promise<ShownOf<'transactions'>>
  /** One page of the transactions of a customer, a number or a feature. */
  listOf(owner: { readonly customerID: string } | { readonly numberID: string } | { readonly featureID: string }, params?: ListParams<'transactions'>): Promise<Page<ShownOf<'transactions'>>>
}

/** Billing runs (contract 9.5). */
export interface BillingRunsApi extends ReadApi<'billingRuns'> {
  /** Creates a run, Pending (default) or `status: "Requested"` to start it at the next poll. */
  create(body: InputOf<'billingRuns'>): Promise<ShownOf<'billingRuns'>>
  /** Updates a Pending run; `status: "Requested"` starts it and locks its dates (`locked` after). */
  update(id: string, body: PatchOf<'billingRuns'>): Promise<ShownOf<'billingRuns'>>
  /** Deletes a Pending run; answers it as it was. */
  delete(id: string): Promise<ShownOf<'billingRuns'>>
  /**
   * Executes the oldest requested run now (or resumes one a crash left Running), in this process,
   * claiming its partitions beside any other worker on the database (status `Running` when others
   * still hold some); null when there is nothing to do. The scheduler does this on its own; call
   * it when it is not started.
   */
  runNext(options?: RunOptions): Promise<RunOutcome | null>
  /** The run's print file (contract 14.2): one PDF of the invoices of customers with a post bill type, in account number order. */
  printFile(id: string): Promise<Uint8Array>
}

/** What `invoices.document` renders: the format, and the customer's short or long page list (default long). */
export interface DocumentOptions<F extends DocumentFormat = DocumentFormat> {
  readonly format: F
  readonly pages?: 'short' | 'long'
}

/** Invoices raised by billing runs. */
export interface InvoicesApi extends ReadApi<'invoices'> {
  /** One page of a customer's invoices. */
  listOf(customerID: string, params?: ListParams<'invoices'>): Promise<Page<ShownOf<'invoices'>>>
  /**
   * The invoice's document (contract 10.5), as `GET /invoices/<id>` answers it by `Accept`: a PDF's
   * bytes, or one self-contained HTML page. `pages` other than short or long fails with invalid_query.
   */
  document(id: string, options: DocumentOptions<'pdf'>): Promise<Uint8Array>
  document(id: string, options: DocumentOptions<'html'>): Promise<string>
  document(id: string, options: DocumentOptions): Promise<Uint8Array | string>
  /** One page of the invoice's deliveries (contract 14.2): email, post and fax, with their status and attempts. */
  deliveries(id: string, params?: ListParams<'invoiceDeliveries'>): Promise<Page<ShownOf<'invoiceDeliveries'>>>
  /** `resend` (`{}` or `{ email }`) queues another email of the invoice; answers the invoice. */
  readonly action: ActionRunner<'invoices'>
}

/** The format a document call asks for (pdf or html), else `invalid_query` as HTTP's `Accept` has no other. */
export function documentFormatOf(options: { readonly format?: unknown } | undefined): DocumentFormat {
  const format = options?.format
  if (!documentFormats.includes(format as DocumentFormat)) {
    throw new BillingError('invalid_query', `format must be pdf or html, not ${JSON.stringify(format)}`, 'Give { format: "pdf" } or { format: "html" }.')
  }
  return format as DocumentFormat
}

const transactionParents = { customerID: 'customers', numberID: 'numbers', featureID: 'features' } as const

/**
 * The one parent a scoped list names, of those `parents` has (column → collection). HTTP has
 * routes for these only and answers any other path 404; here another owner is `not_found` too.
 */
export function ownerOf<P extends Readonly<Record<string, ResourceName>>>(owner: unknown, parents: P, listed: string): [keyof P & string, string] {
  const entries = typeof owner === 'object' && owner !== null ? Object.entries(owner) : []
  const [column, id] = entries.length === 1 ? entries[0]! : []
  if (typeof column === 'string' && Object.hasOwn(parents, column) && typeof id === 'string') return [column, id]
  const names = Object.keys(parents).join(' or ')
  const given = entries.map(([name]) => name).join(', ') || 'none'
  throw new BillingError('not_found', `${listed} are listed by one ${names}, not by ${quoted(given)}`, `Give one of ${names} with its ID.`)
}

export function transactionsApi(ctx: PlatformContext): TransactionsApi {
  return {
    ...readApi(ctx, 'transactions'),
    add: (customerID, body) => shown('transactions', addManualTransaction(ctx, customerID, body)),
    listOf: async (owner, params) => {
      const [column, id] = ownerOf(owner, transactionParents, 'Transactions')
      return shownPage('transactions', toPage(await readPage(ctx, 'transactions', params, { scope: () => parentScope(ctx.store, transactionParents[column], id, column) })))
    },
  }
}

export function billingRunsApi(ctx: PlatformContext): BillingRunsApi {
  return {
    ...readApi(ctx, 'billingRuns'),
    create: (body) => shown('billingRuns', createBillingRun(ctx, body)),
    update: (id, body) => shown('billingRuns', updateBillingRun(ctx, id, body)),
    delete: (id) => shown('billingRuns', deleteBillingRun(ctx, id)),
    runNext: (options) => runNextBillingRun(ctx, options),
    printFile: async (id) => renderInvoicesPdf(await readPrintFile(ctx, id), { title: `Billing run ${id} print file`, sheets: true }),
  }
}

export function invoicesApi(ctx: PlatformContext): InvoicesApi {
  async function document(id: string, options: DocumentOptions): Promise<Uint8Array | string> {
    const format = documentFormatOf(options)
    return renderInvoice(await readInvoiceDocument(ctx, id, options.pages), format)
  }
  return {
    ...readApi(ctx, 'invoices'),
    listOf: async (customerID, params) =>
      shownPage('invoices', toPage(await readPage(ctx, 'invoices', params, { scope: () => parentScope(ctx.store, 'customers', customerID, 'customerID') }))),
    document: document as InvoicesApi['document'],
    deliveries: async (id, params) =>
      shownPage('invoiceDeliveries', toPage(await readPage(ctx, 'invoiceDeliveries', params, { scope: () => parentScope(ctx.store, 'invoices', id, 'invoiceID') }))),
    action: actionRunner(ctx, 'invoices'),
  }
}
