import { createBillingRun, deleteBillingRun, updateBillingRun } from '../../core/billing/billing-runs.js'
import { addManualTransaction } from '../../core/billing/manual-transactions.js'
import { runNextBillingRun, type RunOptions, type RunOutcome } from '../../core/billing/run-billing.js'
import type { InputOf, PatchOf, ShownOf } from '../../core/fields/entity.js'
import type { PlatformContext } from '../../core/platform.js'
import { parentScope } from '../../core/resources/scopes.js'
import { readApi, readPage, shown, shownPage, toPage, type ListParams, type Page, type ReadApi } from './resource-api.js'

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
   * Executes the oldest requested run now (or resumes one a crash left Running), in this process;
   * null when there is none. The scheduler does this on its own; call it when it is not started.
   */
  runNext(options?: RunOptions): Promise<RunOutcome | null>
}

/** Invoices raised by billing runs. */
export interface InvoicesApi extends ReadApi<'invoices'> {
  /** One page of a customer's invoices. */
  listOf(customerID: string, params?: ListParams<'invoices'>): Promise<Page<ShownOf<'invoices'>>>
}

const transactionParents = { customerID: 'customers', numberID: 'numbers', featureID: 'features' } as const

export function transactionsApi(ctx: PlatformContext): TransactionsApi {
  return {
    ...readApi(ctx, 'transactions'),
    add: (customerID, body) => shown(addManualTransaction(ctx, customerID, body)),
    listOf: async (owner, params) => {
      const [column, id] = Object.entries(owner)[0] as [keyof typeof transactionParents, string]
      return shownPage<'transactions'>(toPage(await readPage(ctx, 'transactions', params, { scope: () => parentScope(ctx.store, transactionParents[column], id, column) })))
    },
  }
}

export function billingRunsApi(ctx: PlatformContext): BillingRunsApi {
  return {
    ...readApi(ctx, 'billingRuns'),
    create: (body) => shown(createBillingRun(ctx, body)),
    update: (id, body) => shown(updateBillingRun(ctx, id, body)),
    delete: (id) => shown(deleteBillingRun(ctx, id)),
    runNext: (options) => runNextBillingRun(ctx, options),
  }
}

export function invoicesApi(ctx: PlatformContext): InvoicesApi {
  return {
    ...readApi(ctx, 'invoices'),
    listOf: async (customerID, params) =>
      shownPage<'invoices'>(toPage(await readPage(ctx, 'invoices', params, { scope: () => parentScope(ctx.store, 'customers', customerID, 'customerID') }))),
  }
}
