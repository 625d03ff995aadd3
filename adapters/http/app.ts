import { H3, type H3Event, type Middleware } from 'h3'
import type { PlatformContext } from '../../core/platform.js'
import type { ApiKey } from '../../core/ports/api-key-repository.js'
import type { IdempotencyStore } from '../../core/ports/idempotency-store.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import { accessLevel } from './middleware/access-level.js'
import { authentication } from './middleware/authentication.js'
import { compression } from './middleware/compression.js'
import { cors } from './middleware/cors.js'
import { idempotency } from './middleware/idempotency.js'
import { notFound, shadowedMethods } from './middleware/not-found.js'
import { rateLimit } from './middleware/rate-limit.js'
import { requestContext, type RequestContextOptions } from './middleware/request-context.js'
import { RateLimiter, type RateLimit } from './rate-limit.js'
import { pageMeta, routeMeta } from './route-meta.js'
import { fullPath, type Route } from './route.js'
import type { PageRoute } from '../portal/portal-http.js'

export type { RequestLogEntry } from './middleware/request-context.js'

export interface HttpOptions extends Pick<RequestContextOptions, 'onRequestEnd' | 'onUnexpectedError'> {
  readonly platform: PlatformContext
  readonly secrets: KeySecrets
  readonly routes: readonly Route[]
  /** Enables the Idempotency-Key header on POST routes that take an API key (contract 2). */
  readonly idempotency?: IdempotencyStore
  /** How long an Idempotency-Key's claim lasts unrenewed (a killed request's key is free after it); 60 s when absent. */
  readonly idempotencyLeaseMs?: number
  /** A token bucket per API key name, after authentication (429001); none when absent. */
  readonly rateLimit?: RateLimit | null
  /** Milliseconds of a monotonic clock for the rate limit (tests pass their own). */
  readonly rateLimitClock?: () => number
  /** A request not answered within this many milliseconds answers 503001; no deadline when absent. */
  readonly handlerTimeoutMs?: number
  /** A body read waits this long at most for the client's next bytes, else 408001; no limit when absent. */
  readonly bodyTimeoutMs?: number
  /** Origins whose browsers may call the API (`*` for any); none when absent. */
  readonly corsOrigins?: readonly string[]
  /** Compress large answers when the client accepts brotli or gzip (default true). */
  readonly compression?: boolean
  /**
   * Web pages beside the API (the portal, contract 14.3): they authenticate their own visitors;
   * `answers`, when given, sees every answer under the prefix first and last (their own headers and error pages).
   */
  readonly pages?: { readonly prefix: string; readonly routes: readonly PageRoute[]; readonly answers?: Middleware }
}

/**
 * The h3 application, composed here and only here. The pages' `answers` come first (they see
 * every answer under their prefix), then CORS (a preflight carries no key), then compression of whatever is answered, then contract 2's order:
 * request ID, deadline and error bodies; authentication; the key's rate limit. Then each route
 * with its own middlewares (access level, idempotency), then 404/405 for what no route answers.
 */
export function createHttpApp(options: HttpOptions): H3 {
  const { platform, secrets, routes } = options
  // A malformed escape in the path (`/customers/%E0%A4%A`) reaches the middleware instead of
  // h3's own 400: authentication still comes first, and no route matches it or every ID check refuses it.
  const app = new H3({ silent: true, allowMalformedURL: true })
  if (options.pages?.answers) app.use(options.pages.answers)
  if (options.corsOrigins?.length) app.use(cors(options.corsOrigins))
  if (options.compression !== false) app.use(compression())
  app.use(requestContext({ ...options, deadlineMs: options.handlerTimeoutMs }))
  const isPublic = publicPathMatcher(routes)
  const pages = options.pages
  app.use(authentication(platform, secrets, pages ? (path) => path === pages.prefix || path.startsWith(`${pages.prefix}/`) || isPublic(path) : isPublic))
  if (options.rateLimit) app.use(rateLimit(new RateLimiter(options.rateLimit, options.rateLimitClock)))

  for (const route of routes) {
    const middleware: Middleware[] = []
    if (route.access) middleware.push(accessLevel(route.access))
    // Public routes have no API key to scope a key by, and authenticate inside their handler (a
    // provider's callback de-duplicates by webhook-id and reference instead, contract 15.1).
    if (route.method === 'POST' && !route.public && options.idempotency) middleware.push(idempotency(options.idempotency, options.idempotencyLeaseMs))
    const handler = (event: H3Event) =>
      route.handler(event, { platform, key: (event.context.key as ApiKey | undefined) ?? null, params: decodeParams(event.context.params ?? {}) })
    const path = fullPath(route)
    for (const variant of [path, `${path}/`]) app.on(route.method, variant, handler, { middleware, meta: routeMeta(route) })
  }
  const unanswered = notFound(routes)
  for (const [path, method] of shadowedMethods(routes)) for (const variant of [path, `${path}/`]) app.on(method, variant, unanswered)
  for (const page of pages?.routes ?? []) {
    // Labelled by its pattern, as the API's routes are: a page's requests are counted and logged as `/portal/invoices/:id`.
    const meta = pageMeta(page.path || '/')
    for (const variant of page.path.endsWith('**') ? [page.path] : [page.path || '/', `${page.path}/`]) app.on(page.method, variant, page.handler, { meta })
  }
  app.all('/**', unanswered)
  return app
}

/** Whether a path is one of the public routes' (`:name` segments match any one segment). */
function publicPathMatcher(routes: readonly Route[]): (path: string) => boolean {
  const exact = new Set<string>()
  const patterns: RegExp[] = []
  for (const route of routes.filter((r) => r.public)) {
    const path = fullPath(route)
    if (path.includes('/:')) patterns.push(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:\w+/g, '/[^/]+')}$`))
    else exact.add(path)
  }
  return (path) => exact.has(path) || patterns.some((p) => p.test(path))
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(params)) {
    try {
      out[k] = decodeURIComponent(v)
    } catch {
      out[k] = v
    }
  }
  return out
}
