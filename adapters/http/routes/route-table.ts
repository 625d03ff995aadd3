import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Route } from '../route.js'
import { itemActions } from '../../../core/actions/action-table.js'
import { takesPresetValue } from '../../../core/resources/preset-values.js'
import { expansionFlags } from '../../../core/resources/expansions.js'
import { actionRoute, documented, type ActionDef } from './action-routes.js'
import { chargeChangeActionDocs, writeOffActionDocs } from './billing-actions.js'
import { billingRunRoutes, transactionRoutes } from './billing-routes.js'
import { deliveryRoutes } from './delivery-routes.js'
import { customerChildRoutes, featureRoutes } from './child-routes.js'
import { contactActionDocs, sharedContactActionDocs } from './contact-actions.js'
import { contactRoutes } from './contact-routes.js'
import { customerSideEffectActionDocs } from './customer-actions.js'
import { customerRoutes } from './customer-routes.js'
import { disasterRecoveryRoutes } from './disaster-recovery-routes.js'
import { docsRoutes } from './docs-routes.js'
import { accessOfRoutes, historyRoutes, webhookRoutes } from './history-routes.js'
import { healthRoute, operationRoutes, type Operations } from './health-routes.js'
import { lifecycleActionDocs } from './lifecycle-actions.js'
import { paymentRoutes } from './payment-routes.js'
import { creditNoteRoutes } from './credit-note-routes.js'
import { presetRoute } from './preset-routes.js'
import { expandingPresenter } from './presenters.js'
import { tariffRoutes } from './tariff-routes.js'
import { restoreCallsActionDoc, usageRoutes } from './usage-routes.js'
import { destinationRoutes } from './destination-routes.js'
import { carrierBillRoutes } from './carrier-bill-routes.js'
import { reportRoutes } from './report-routes.js'

/** Actions per collection; later capabilities add theirs here. */
export type ActionTable = Partial<Record<ResourceName, Record<string, ActionDef>>>

/** The core's actions (`itemActions`: names, order, behaviour) with their documentation. */
export function baseActions(): ActionTable {
  return {
    customers: documented(itemActions.customers, {
      ...lifecycleActionDocs('customers'),
      ...sharedContactActionDocs,
      ...customerSideEffectActionDocs,
      ...writeOffActionDocs,
      ...restoreCallsActionDoc,
    }),
    numbers: documented(itemActions.numbers, lifecycleActionDocs('numbers')),
    services: documented(itemActions.services, lifecycleActionDocs('services')),
    features: documented(itemActions.features, { ...lifecycleActionDocs('features'), ...chargeChangeActionDocs }),
    customerContacts: documented(itemActions.customerContacts, contactActionDocs),
    invoices: documented(itemActions.invoices, { resend: { summary: 'Queue another email of the invoice: to the customer email, or to {"email": "..."}' } }),
  }
}

/**
 * Every route the server answers; OpenAPI, access tests and the fuzzer read this same table.
 * `operations` adds `/readyz` and `/metrics` (a server has them; a bare route table need not).
 */
export function buildRoutes(resources: ReadonlyMap<ResourceName, Resource>, actions: ActionTable = baseActions(), operations?: Operations): Route[] {
  const r = (name: ResourceName) => {
    const resource = resources.get(name)
    if (!resource) throw new Error(`no resource ${name}`)
    return resource
  }
  const children = (n: 'numbers' | 'services' | 'features') => r(n)
  const items: Route[] = [
    healthRoute(),
    ...(operations ? operationRoutes(operations) : []),
    ...customerRoutes(r('customers'), expandingPresenter('customers'), expansionFlags.customers),
    ...customerChildRoutes('numbers', children),
    ...customerChildRoutes('services', children),
    ...featureRoutes(children),
    ...tariffRoutes(r('tariffs'), r('tariffDetails'), 'tariffID'),
    ...tariffRoutes(r('fixedFeeTariffs'), r('fixedFeeTariffDetails'), 'fixedFeeTariffID'),
    ...contactRoutes(r('customerContacts')),
    ...transactionRoutes(r('transactions'), (n) => r(n)),
    ...billingRunRoutes(r('billingRuns'), r('invoices'), r('customers'), r('transactions')),
    ...deliveryRoutes(r('invoiceDeliveries')),
    ...usageRoutes(r('usageFiles'), r('calls'), r('customers'), r('numbers')),
    ...destinationRoutes(r('destinationTables'), r('destinations')),
    ...carrierBillRoutes(r('carrierBills'), r('carrierBillLines')),
    ...reportRoutes(),
    ...disasterRecoveryRoutes(r('disasterRecoveryFiles')),
  ]
  const later: Route[] = [
    ...webhookRoutes(r('webhooks'), r('webhookDeliveries')),
    ...paymentRoutes(r('paymentLinks')),
    ...creditNoteRoutes(r('creditNotes'), r('invoices'), r('customers'), r('transactions')),
  ]
  // History shows what the other routes guard, so it takes their access (a credit note's history: level 3).
  const routes: Route[] = [...items, ...historyRoutes(r('history'), r('events'), accessOfRoutes([...items, ...later])), ...later]
  for (const [name, defs] of Object.entries(actions)) {
    if (defs && Object.keys(defs).length) routes.push(actionRoute(r(name as ResourceName), defs))
  }
  for (const resource of resources.values()) {
    if (resource.fields.some(takesPresetValue)) {
      routes.push(presetRoute(resource))
    }
  }
  routes.push(...docsRoutes(() => routes))
  return routes
}
