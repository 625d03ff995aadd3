import { createBillingRun, deleteBillingRun, updateBillingRun } from '../../../core/billing/billing-runs.js'
import { addManualTransaction } from '../../../core/billing/manual-transactions.js'
import type { Resource } from '../../../core/fields/resource.js'
import { toWire } from '../../../core/fields/wire.js'
import { getItem } from '../../../core/resources/resources.js'
import { parentScope } from '../../../core/resources/scopes.js'
import { readJsonObject } from '../body.js'
import { json } from '../respond.js'
import { BASE_PATH, type Route } from '../route.js'
import { getRoute, listRoute, queryAfterItem } from './resource-routes.js'
import { apiPath } from '../mount-prefix.js'
import { invoicePreviewRoute, invoiceRoute } from './invoice-routes.js'
import { readQuery } from '../query.js'

type Scope = 'customers' | 'numbers' | 'features'
const scopeColumn: Record<Scope, string> = { customers: 'customerID', numbers: 'numberID', features: 'featureID' }

/** A list scoped under a parent that must exist (404001 before the query is read). */
const scoped = (resource: Resource, parent: Scope, parentResource: Resource): Route =>
  listRoute(resource, {
    path: `/${parent}/:id/${resource.name}`,
    summary: `List a ${parentResource.singular}'s ${resource.name}`,
    scope: (ctx) => parentScope(ctx.platform.store, parentResource.name, ctx.params.id, scopeColumn[parent]),
  })

/** The ledger (contract 9.2): lists with filters, and manual transactions on a customer. */
export function transactionRoutes(transactions: Resource, r: (n: Scope) => Resource): Route[] {
  return [
    listRoute(transactions, { path: '/transactions', summary: 'List transactions' }),
    getRoute(transactions),
    scoped(transactions, 'customers', r('customers')),
    scoped(transactions, 'numbers', r('numbers')),
    scoped(transactions, 'features', r('features')),
    {
      method: 'POST',
      path: '/customers/:id/transactions',
      doc: { summary: 'Add a manual transaction (a one-off charge, a credit or a payment; a Refund only by POST /customers/<id>/refunds)', resource: 'transactions', kind: 'create' },
      async handler(event, ctx) {
        await getItem(ctx.platform, r('customers'), ctx.params.id)
        readQuery(event)
        const body = await readJsonObject(event)
        const item = await addManualTransaction(ctx.platform, ctx.params.id, body)
        return json(event, 201, toWire(transactions, item), { location: apiPath(event, `/transactions/${item.id}`) })
      },
    },
  ]
}

/** Billing runs (contract 9.5) and the invoices they raise. */
export function billingRunRoutes(runs: Resource, invoices: Resource, customers: Resource, transactions: Resource): Route[] {
  return [
    listRoute(runs, { path: '/billingRuns', summary: 'List billing runs' }),
    getRoute(runs),
    {
      method: 'POST',
      path: '/billingRuns',
      doc: { summary: 'Create a billing run (Pending, or Requested to start it at once)', resource: 'billingRuns', kind: 'create', errors: [409003] },
      async handler(event, ctx) {
        readQuery(event)
        const item = await createBillingRun(ctx.platform, await readJsonObject(event))
        return json(event, 201, toWire(runs, item), { location: apiPath(event, `/billingRuns/${item.id}`) })
      },
    },
    {
      method: 'PATCH',
      path: '/billingRuns/:id',
      doc: {
        summary: 'Update a Pending run; status "Requested" starts it and locks its dates. A run in Review: status "Approved" finalises its drafts, "Discarded" removes them',
        resource: 'billingRuns',
        kind: 'update',
        errors: [409003],
      },
      async handler(event, ctx) {
        await getItem(ctx.platform, runs, ctx.params.id)
        readQuery(event)
        const item = await updateBillingRun(ctx.platform, ctx.params.id, await readJsonObject(event))
        return json(event, 200, toWire(runs, item))
      },
    },
    {
      method: 'DELETE',
      path: '/billingRuns/:id',
      doc: { summary: 'Delete a Pending billing run', resource: 'billingRuns', kind: 'delete', errors: [409003] },
      async handler(event, ctx) {
        await queryAfterItem(() => readQuery(event), () => getItem(ctx.platform, runs, ctx.params.id))
        return json(event, 200, toWire(runs, await deleteBillingRun(ctx.platform, ctx.params.id)))
      },
    },
    listRoute(invoices, { path: '/invoices', summary: 'List invoices' }),
    invoiceRoute(invoices),
    invoicePreviewRoute(invoices, transactions),
    scoped(invoices, 'customers', customers),
  ]
}
