import type { Middleware } from 'h3'
import type { RateLimiter } from '../rate-limit.js'

/** One token per request from the key's bucket (429001 when empty); public requests have no key and pass. */
export function rateLimit(limiter: RateLimiter): Middleware {
  return (event, next) => {
    const key = event.context.key as { name: string } | undefined
    if (key) limiter.take(key.name)
    return next()
  }
}
