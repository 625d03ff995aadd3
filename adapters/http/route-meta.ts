import type { H3Event } from 'h3'
import { fullPath, type Route } from './route.js'

/**
 * The route table's entry travels with h3's route as its meta, so middlewares can read it (it
 * survives `mount`); so does its path pattern, which labels the request in logs and metrics.
 */
export const routeMeta = (route: Route) => ({ route, pattern: fullPath(route) })

/** A web page's meta (the portal's): only its pattern (`/portal/invoices/:id`), never a raw ID. */
export const pageMeta = (pattern: string) => ({ pattern })

/** The route table's entry h3 matched for this request, if any. */
export const routeOf = (event: H3Event): Route | undefined => event.context.matchedRoute?.meta?.route as Route | undefined

/** The path pattern of the route or page h3 matched, or null when none did (counted as `unmatched`). */
export const patternOf = (event: H3Event): string | null => (event.context.matchedRoute?.meta?.pattern as string | undefined) ?? null
