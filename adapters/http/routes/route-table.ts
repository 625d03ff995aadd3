import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Route } from '../route.js'
import { customerRoutes } from './customer-routes.js'
import { healthRoute } from './health-routes.js'
import { presetRoute } from './preset-routes.js'

/** Every route the server answers; OpenAPI, access tests and the fuzzer read this same table. */
export function buildRoutes(resources: ReadonlyMap<ResourceName, Resource>): Route[] {
  const r = (name: ResourceName) => resources.get(name)!
  const routes: Route[] = [healthRoute(), ...customerRoutes(r('customers'))]
  for (const resource of resources.values()) {
    if (resource.fields.some((f) => (f.type === 'preset' || f.type === 'presets') && !f.internal)) routes.push(presetRoute(resource))
  }
  return routes
}
