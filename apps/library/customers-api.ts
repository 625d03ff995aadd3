import type { InputOf, ShownOf } from '../../core/fields/entity.js'
import { createRefund } from '../../core/credit-notes/refunds.js'
import { previewDocument, shownPreview, type InvoicePreview, type PreviewDocumentOptions } from './invoice-preview.js'
import type { RefundInput } from './credit-notes-api.js'
import type { PlatformContext } from '../../core/platform.js'
import { expandItems, expansionFlags, type Expanded, type ExpandingLevel } from '../../core/resources/expansions.js'
import type { ListSpec } from '../../core/resources/list-page.js'
import { getItem, scheduleCustomerDeletion } from '../../core/resources/resources.js'
import { parentScope } from '../../core/resources/scopes.js'
import { expireLinks } from '../../core/payments/payment-links.js'
import { requestTopups } from '../../core/credit/auto-topups.js'
import { announceContractEnds, type ContractEndNotices } from '../../core/contract-ends/announce-contract-ends.js'
import { actionRunner, create, readPage, resourceApi, resourceOf, shown, shownPage, toPage, visibleItem, type ActionRunner, type AnyListParams, type ExpandablePage, type ListParams, type Page, type ResourceApi } from './resource-api.js'

/** Customers: create, read, update, schedule the deletion of, and act on (lifecycle, PIN, payment links, ...). */
export interface CustomersApi {
  /** Creates a customer: active, billable, with the fields of `body`. */
  create(body: InputOf<'customers'>): Promise<ShownOf<'customers'>>
  /** One customer by ID (a customer scheduled for deletion stays readable until purged). */
  get(id: string): Promise<ShownOf<'customers'>>
  /** One page of customers; filters and the flags expandNumbers, expandServices, expandFeatures, numberActive, serviceActive, featureActive. */
  list(params?: ListParams<'customers', ExpansionFlag<'customers'>>): Promise<ExpandablePage<ShownOf<'customers'>>>
  /** Partial merge of `body` into the customer. */
  update: ResourceApi<'customers'>['update']
  /** Schedules the purge of the customer 30 days from today (contract 5.6); answers the customer. */
  scheduleDeletion(id: string): Promise<ShownOf<'customers'>>
  /**
   * Runs an action: drop, reinstate, suspend, unsuspend, makeNonBillable, makeBillable, finalBill,
   * addSharedContact, removeSharedContact, generatePIN (answers `{ pin }`), linkToAccounting,
   * unlinkFromAccounting, generatePaymentLinks (answers the links), writeOffDebt, writeOffCredit,
   * restoreCalls. The others answer the updated customer.
   */
  readonly action: ActionRunner<'customers'>
  /**
   * One page of the links `generatePaymentLinks` recorded for the customer (contract 15.1), as
   * `GET /customers/<id>/paymentLinks/` answers them: Open, Paid, or Expired after 30 days.
   */
  paymentLinks(id: string, params?: ListParams<'paymentLinks'>): Promise<Page<ShownOf<'paymentLinks'>>>
  /**
   * The invoice a billing run with `cutoffDate` would raise for the customer now (contract 16.1):
   * its lines and totals, made by the run's own code, with nothing written; `invoice` null and a
   * `reason` when none would be raised. A cutoff before the customer's last invoice fails with
   * invalid_query.
   */
  previewInvoice(id: string, options: { readonly cutoffDate: string }): Promise<InvoicePreview>
  /**
   * The previewed invoice's document, as the preview with `Accept: application/pdf` or
   * `text/html` answers it: a PDF's bytes or one HTML page, `pages` short or long (default long).
   * `not_found` when no invoice would be raised; a format other than pdf or html is invalid_query.
   */
  previewInvoiceDocument(id: string, options: PreviewDocumentOptions<'pdf'>): Promise<Uint8Array>
  previewInvoiceDocument(id: string, options: PreviewDocumentOptions<'html'>): Promise<string>
  previewInvoiceDocument(id: string, options: PreviewDocumentOptions): Promise<Uint8Array | string>
  /**
   * Pays held credit back (contract 15.3), as `POST /customers/<id>/refunds/`: a `Refund`
   * transaction of `amount` (rounded to pence), dated `date` (default today), its `reference` in
   * the description; more than the credit held is invalid_field. Answers the transaction.
   */
  refund(id: string, body: RefundInput): Promise<ShownOf<'transactions'>>
  /**
   * The `auto-topup` job's step, now: each customer whose funds fell below its `autoTopupProfile`'s
   * threshold is asked for a top-up once (event `customer.topup_requested`, `autoTopupRequestedDate`
   * set), and the mark of each whose funds are back is cleared. The scheduler does this every 15
   * minutes; call it when it is not started. Answers how many were asked and cleared.
   */
  requestTopups(): Promise<{ requested: number; cleared: number }>
  /**
   * The `contract-end-notices` job's step, now: each customer, number and service not dropped
   * whose `contractEndDate` is within the presets' `contractEndNoticeDays` (shipped 40) from today
   * is announced once for that date (event `contract.ending`, history `contractEndNotice`, its
   * `contractEndNoticeDate` set). The scheduler does this daily at 01:00; call it when it is not
   * started. Answers how many of each were announced.
   */
  announceContractEnds(): Promise<ContractEndNotices>
}

/** The expansion flags a level's lists take (expandNumbers, featureActive, ...). */
export type ExpansionFlag<L extends ExpandingLevel> = (typeof expansionFlags)[L][number]

/** A page of an expanding level, with `expanded` when an expansion flag was given. */
export async function expandablePage<L extends ExpandingLevel>(ctx: PlatformContext, level: L, params: AnyListParams | undefined, spec: ListSpec = {}): Promise<ExpandablePage<ShownOf<L>>> {
  const { items, hasMore, request } = await readPage(ctx, level, params, { ...spec, flags: expansionFlags[level] })
  const expanding = [...request.flags].some((f) => f.startsWith('expand'))
  const visible = items.map((i) => visibleItem(level, i))
  const page = expanding ? { items: visible, hasMore, expanded: (await expandItems(ctx.store, level, items, request.flags)).map((e) => visibleExpanded(level, e)) } : { items: visible, hasMore }
  return page as unknown as ExpandablePage<ShownOf<L>>
}

/** An expanded item with every item in it as a library caller sees it (see `visibleItem`). */
function visibleExpanded(level: ExpandingLevel, e: Expanded): Expanded {
  return {
    item: visibleItem(level, e.item),
    ...(e.numbers ? { numbers: e.numbers.map((n) => visibleExpanded('numbers', n)) } : {}),
    ...(e.services ? { services: e.services.map((n) => visibleExpanded('services', n)) } : {}),
    ...(e.features ? { features: e.features.map((f) => visibleItem('features', f)) } : {}),
  }
}

export function customersApi(ctx: PlatformContext): CustomersApi {
  const crud = resourceApi(ctx, 'customers')
  return {
    create: (body) => create(ctx, 'customers', body),
    get: crud.get,
    list: (params) => expandablePage<'customers'>(ctx, 'customers', params),
    update: crud.update,
    scheduleDeletion: (id) => shown('customers', scheduleCustomerDeletion(ctx, resourceOf(ctx, 'customers'), id)),
    action: actionRunner(ctx, 'customers'),
    paymentLinks: async (id, params) => {
      const scope = async () => {
        const found = await parentScope(ctx.store, 'customers', id, 'customerID')
        await expireLinks(ctx.store, ctx.clock, id)
        return found
      }
      return shownPage('paymentLinks', toPage(await readPage(ctx, 'paymentLinks', params, { scope })))
    },
    previewInvoice: (id, options) => shownPreview(ctx, id, options),
    previewInvoiceDocument: ((id: string, options: PreviewDocumentOptions) => previewDocument(ctx, id, options)) as CustomersApi['previewInvoiceDocument'],
    refund: (id, body) => shown('transactions', getItem(ctx, resourceOf(ctx, 'customers'), id).then(() => createRefund(ctx, id, body))),
    requestTopups: () => requestTopups(ctx),
    announceContractEnds: () => announceContractEnds(ctx),
  }
}
