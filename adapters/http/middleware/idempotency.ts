import type { Middleware } from 'h3'
import type { IdempotencyStore } from '../../../core/ports/idempotency-store.js'
import { withIdempotency } from '../idempotency.js'
import { errorResponse } from '../respond.js'

/**
 * A POST with an Idempotency-Key runs at most once (contract 2). The route's failures become
 * responses inside, so that a 4xx is stored and replayed like any other answer.
 */
export function idempotency(store: IdempotencyStore, leaseMs?: number): Middleware {
  return async (event, next) => {
    const key = event.req.headers.get('idempotency-key')
    if (key === null) return next()
    const scope = (event.context.key as { name?: string } | undefined)?.name ?? 'public'
    return withIdempotency(event, store, scope, key, async () => {
      try {
        return (await next()) as Response
      } catch (error) {
        return errorResponse(event, error)
      }
    }, leaseMs)
  }
}
