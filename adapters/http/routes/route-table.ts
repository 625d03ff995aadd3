import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Route } from '../route.js'
import { actionRoute, type ActionDef } from './action-routes.js'
import { chargeChangeActions, writeOffActions } from './billing-actions.js'
import { billingRunRoutes, transactionRoutes } from './billing-routes.js'
import { customerChildRoutes, featureRoutes } from './child-routes.js'
import { contactActions, sharedContactActions } from './contact-actions.js'
import { contactRoutes } from './contact-routes.js'
import { customerSideEffectActions } from './customer-actions.js'
import { customerRoutes } from './customer-routes.js'
import { disasterRecoveryRoutes } from './disaster-recovery-routes.js'
import { docsRoutes } from './docs-routes.js'
import { healthRoute } from './health-routes.js'
import { lifecycleActions } from './lifecycle-actions.js'
import { presetRoute } from './preset-routes.js'
import { expandingPresenter, expansionFlags } from './presenters.js'
import { tariffRoutes } from './tariff-routes.js'
import { restoreCallsAction, usageRoutes } from './usage-routes.js'

/** Actions per collection; later capabilities add theirs here. */
export type ActionTable = Partial<Record<ResourceName, Record<string, ActionDef>>>

export function baseActions(): ActionTable {
  return {
    customers: { ...lifecycleActions('customers'), ...sharedContactActions, ...customerSideEffectActions, ...writeOffActions, ...restoreCallsAction },
    numbers: lifecycleActions('numbers'),
    services: lifecycleActions('services'),
    features: { ...lifecycleActions('features'), ...chargeChangeActions },
    customerContacts: { ...contactActions },
  }
}

/** Every route the server answers; OpenAPI, access tests and the fuzzer read this same table. */
export function buildRoutes(resources: ReadonlyMap<ResourceName, Resource>, actions: ActionTable = baseActions()): Route[] {
  const r = (name: ResourceName) => {
    const resource = resources.get(name)
    if (!resource) throw new Error(`no resource ${name}`)
    return resource
  }
  const children = (n: 'numbers' | 'services' | 'features') => r(n)
  const routes: Route[] = [
    healthRoute(),
    ...customerRoutes(r('customers'), expandingPresenter('customers', children), expansionFlags.customers),
    ...customerChildRoutes('numbers', children),
    ...customerChildRoutes('services', children),
    ...featureRoutes(children),
    ...tariffRoutes(r('tariffs'), r('tariffDetails'), 'tariffID'),
    ...tariffRoutes(r('fixedFeeTariffs'), r('fixedFeeTariffDetails'), 'fixedFeeTariffID'),
    ...contactRoutes(r('customerContacts')),
    ...transactionRoutes(r('transactions'), (n) => r(n)),
    ...billingRunRoutes(r('billingRuns'), r('invoices'), r('customers')),
    ...usageRoutes(r('usageFiles'), r('calls'), r('customers'), r('numbers')),
    ...disasterRecoveryRoutes(r('disasterRecoveryFiles')),
  ]
  for (const [name, defs] of Object.entries(actions)) {
    if (defs && Object.keys(defs).length) routes.push(actionRoute(r(name as ResourceName), defs))
  }
  for (const resource of resources.values()) {
    if (resource.fields.some((f) => (f.type === 'preset' || f.type === 'presets') && !f.internal && (!f.readOnly || f.createOnly))) {
      routes.push(presetRoute(resource))
    }
  }
  routes.push(...docsRoutes(() => routes))
  return routes
}
