import type { Middleware } from 'h3'
import type { IdempotencyStore } from '../../../core/ports/idempotency-store.js'
import { withIdempotency } from '../idempotency.js'
import { errorResponse } from '../respond.js'

/**
 * A POST with an Idempotency-Key runs at most once (contract 2). The route's failures become
 * responses inside, so that a 4xx is stored and replayed like any other answer. Keys are scoped
 * by the request's API key: a request without one (a public route) stores nothing, so that an
 * unauthenticated caller can neither fill the store nor answer in advance for another caller.
 */
export function idempotency(store: IdempotencyStore, leaseMs?: number): Middleware {
  return async (event, next) => {
    const key = event.req.headers.get('idempotency-key')
    const scope = (event.context.key as { name?: string } | undefined)?.name
    if (key === null || !scope) return next()
    return withIdempotency(event, store, scope, key, async () => {
      try {
        return (await next()) as Response
      } catch (error) {
        return errorResponse(event, error)
      }
    }, leaseMs)
  }
}
