import type { Middleware } from 'h3'

/** Response headers a browser client may read (paging, created items, tracing, caching, retries). */
const EXPOSED = 'link, location, x-request-id, etag, retry-after, allow'
const METHODS = 'GET, POST, PUT, PATCH, DELETE'

/**
 * Cross-origin access for browser clients of the listed origins (`*` for any). A preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is answered here,
 * before authentication, since browsers send it without the key; every other answer to an
 * allowed origin carries `Access-Control-Allow-Origin`. Other origins get no CORS headers,
 * so their browsers refuse the response.
 */
export function cors(origins: readonly string[]): Middleware {
  const any = origins.includes('*')
  const allowed = new Set(origins)
  return async (event, next) => {
    const origin = event.req.headers.get('origin')
    if (!origin || !(any || allowed.has(origin))) return next()
    const allowOrigin = any ? '*' : origin
    if (event.req.method === 'OPTIONS' && event.req.headers.has('access-control-request-method')) {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': allowOrigin,
          'access-control-allow-methods': METHODS,
          // Authorization is never covered by a wildcard: the headers asked for are echoed.
          'access-control-allow-headers': event.req.headers.get('access-control-request-headers') ?? 'authorization, content-type',
          'access-control-max-age': '600',
          vary: 'Origin',
        },
      })
    }
    const response = (await next()) as Response
    response.headers.set('access-control-allow-origin', allowOrigin)
    response.headers.set('access-control-expose-headers', EXPOSED)
    if (!any) response.headers.append('vary', 'Origin')
    return response
  }
}

/** BILLING_CORS_ORIGINS: a comma-separated list of origins (`https://app.example.com`), or `*`. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  for (const origin of origins) {
    if (origin === '*') continue
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      throw new Error(`BILLING_CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], or *)`)
    }
    if (url.origin !== origin) throw new Error(`BILLING_CORS_ORIGINS: "${origin}" is not an origin (write it as ${url.origin})`)
  }
  return origins
}
