import { notFoundPage } from './portal-session.js'
import { pageRoutes } from './page-routes.js'
import type { PageRoute, PortalOptions } from './portal-http.js'
import { PORTAL } from './portal-http.js'
import { signInRoutes } from './sign-in-routes.js'

/**
 * Every route of the self-service portal under `/portal` (contract 14.3), with a 404 page for
 * any other path below it. The API's key check does not apply: the portal signs its visitors in.
 */
export function portalRoutes(o: PortalOptions): PageRoute[] {
  const routes = [...signInRoutes(o), ...pageRoutes(o)].map((r) => ({ ...r, path: `${PORTAL}${r.path}` }))
  return [
    ...routes,
    { method: 'GET', path: `${PORTAL}/**`, handler: async (event) => notFoundPage(event, o) },
    { method: 'POST', path: `${PORTAL}/**`, handler: async (event) => notFoundPage(event, o) },
  ]
}
