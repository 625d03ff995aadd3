import { randomUUID } from 'node:crypto'
import { H3, type H3Event } from 'h3'
import { authenticate } from '../../core/access/api-keys.js'
import { BillingError } from '../../core/errors.js'
import type { PlatformContext } from '../../core/platform.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { IdempotencyStore } from '../../core/ports/idempotency-store.js'
import { withDeadline } from './deadline.js'
import { withIdempotency } from './idempotency.js'
import { HttpFailure } from './error-response.js'
import { RateLimiter, type RateLimit } from './rate-limit.js'
import { errorResponse, json } from './respond.js'
import { fullPath, type Route } from './route.js'

export interface HttpOptions {
  readonly platform: PlatformContext
  readonly secrets: KeySecrets
  readonly routes: readonly Route[]
  /** Called once per request when it ends (structured request log). */
  readonly onRequestEnd?: (entry: RequestLogEntry) => void
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void
  /** Enables the Idempotency-Key header on POST (contract 2). */
  readonly idempotency?: IdempotencyStore
  /** A token bucket per API key name, after authentication (429001); none when absent. */
  readonly rateLimit?: RateLimit | null
  /** Milliseconds of a monotonic clock for the rate limit (tests pass their own). */
  readonly rateLimitClock?: () => number
  /** A request not answered within this many milliseconds answers 503001; no deadline when absent. */
  readonly handlerTimeoutMs?: number
}

export interface RequestLogEntry {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly keyName: string | null
  readonly durationMs: number
}

const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/

/**
 * The h3 application: request ID, authentication and the key's rate limit first (contract 2's
 * order), then the route table, then 404/405 for what no route answers; all of it within the
 * handler deadline.
 */
export function createHttpApp(options: HttpOptions): H3 {
  const { platform, secrets, routes } = options
  // A malformed escape in the path (`/customers/%E0%A4%A`) reaches the middleware instead of
  // h3's own 400: authentication still comes first, and no route matches it or every ID check refuses it.
  const app = new H3({ silent: true, allowMalformedURL: true })
  const publicPaths = new Set(routes.filter((r) => r.public).map(fullPath))
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit, options.rateLimitClock) : null

  app.use(async (event, next) => {
    const started = performance.now()
    const given = event.req.headers.get('x-request-id')
    event.context.requestId = given && REQUEST_ID.test(given) ? given : randomUUID()
    event.context.logError = (e: unknown) => options.onUnexpectedError?.(e, event.context.requestId as string)
    let response: Response
    const answer = async () => {
      if (!publicPaths.has(event.url.pathname.replace(/\/$/, ''))) {
        const key = await authenticateRequest(event, platform, secrets)
        event.context.key = key
        limiter?.take(key.name)
      }
      return (await next()) as Response
    }
    try {
      response = await withDeadline(answer(), options.handlerTimeoutMs)
    } catch (error) {
      response = errorResponse(event, error)
    }
    options.onRequestEnd?.({
      requestId: event.context.requestId as string,
      method: event.req.method,
      path: event.url.pathname,
      status: response.status,
      keyName: (event.context.key as { name?: string } | undefined)?.name ?? null,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    })
    return response
  })

  const methodsByPath = new Map<string, Set<string>>()
  for (const route of routes) {
    const path = fullPath(route)
    const handler = async (event: H3Event) => {
      const key = (event.context.key as RequestContextKey) ?? null
      try {
        if (route.access === 'expertLevel5' && (key?.expertLevel ?? 0) < 5) {
          throw new BillingError('expert_level_required', 'This operation needs expert level 5 (Full)', 'Use a key with expert level 5.')
        }
        if (route.access === 'dataProtectionDownload' && !key?.permissions.includes('dataProtectionDownload')) {
          throw new BillingError(
            'data_protection_required',
            'This operation needs data-protection download access',
            'Use a key with the dataProtectionDownload permission.',
          )
        }
        const params = decodeParams(event.context.params ?? {})
        const run = () => route.handler(event, { platform, key, params })
        const idempotencyKey = route.method === 'POST' ? event.req.headers.get('idempotency-key') : null
        if (idempotencyKey !== null && options.idempotency) {
          return await withIdempotency(event, options.idempotency, key?.name ?? 'public', idempotencyKey, async () => {
            try {
              return await run()
            } catch (error) {
              return errorResponse(event, error)
            }
          })
        }
        return await run()
      } catch (error) {
        return errorResponse(event, error)
      }
    }
    for (const variant of [path, `${path}/`]) app.on(route.method, variant, handler)
    if (!methodsByPath.has(path)) methodsByPath.set(path, new Set())
    methodsByPath.get(path)!.add(route.method)
  }

  const patterns = [...methodsByPath].map(([path, methods]) => ({ re: toRegExp(path), methods: [...methods] }))
  app.all('/**', (event) => {
    const path = event.url.pathname
    const match = patterns.filter((p) => p.re.test(path))
    if (match.length) {
      const allow = [...new Set(match.flatMap((p) => p.methods))].sort().join(', ')
      return errorResponse(
        event,
        new HttpFailure('method_not_allowed', `${event.req.method} is not allowed on ${path}`, `Allowed: ${allow}.`, { allow }),
      )
    }
    return errorResponse(event, new HttpFailure('route_not_found', `No route ${path}`, 'See GET /backend/api/v1/openapi.json for the routes.'))
  })
  return app
}

type RequestContextKey = import('../../core/ports/api-key-repository.js').ApiKey | null

async function authenticateRequest(event: H3Event, platform: PlatformContext, secrets: KeySecrets) {
  const header = event.req.headers.get('authorization') ?? ''
  const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header)
  if (!m) {
    throw new BillingError('unauthenticated', 'Missing or malformed Authorization header', 'Send Authorization: Bearer <key>.')
  }
  return authenticate(platform.store.apiKeys, secrets, m[1])
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

function toRegExp(path: string): RegExp {
  const body = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')
  return new RegExp(`^${body}/?$`)
}

export { json }
