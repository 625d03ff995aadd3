import type { H3Event } from 'h3'
import type { Route } from './route.js'

/** The route table's entry travels with h3's route as its meta, so middlewares can read it (it survives `mount`). */
export const routeMeta = (route: Route) => ({ route })

/** The route table's entry h3 matched for this request, if any. */
export const routeOf = (event: H3Event): Route | undefined => event.context.matchedRoute?.meta?.route as Route | undefined
