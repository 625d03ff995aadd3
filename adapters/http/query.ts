import type { H3Event } from 'h3'
import { BillingError, quoted } from '../../core/errors.js'
import { repeatedQuery, type RawParams } from '../../core/resources/list-request.js'

/** A route's query once `readQuery` let it through: at most one value a name. */
export interface SingleQuery {
  get(name: string): string | null
}

/**
 * The one check of a route's query that is not a list's (contract 2, `400103`): a name not in
 * `allowed` is refused, and so is a name given more than once, as a list refuses it, so no route
 * answers with the first of two values. What passes is read a value a name.
 */
export function readQuery(event: H3Event, allowed: readonly string[] = []): SingleQuery {
  return readParams(event.url.searchParams, allowed)
}

/** `readQuery` of parameters given otherwise (the library's, as a URL would carry them). */
export function readParams(params: URLSearchParams, allowed: readonly string[] = []): SingleQuery {
  const seen = new Set<string>()
  for (const name of params.keys()) {
    if (!allowed.includes(name)) {
      throw new BillingError('invalid_query', `Unknown query parameter ${quoted(name)}`, allowed.length ? `Accepted: ${allowed.join(', ')}.` : 'This route takes no query parameters.')
    }
    if (seen.has(name)) throw repeatedQuery(name)
    seen.add(name)
  }
  return { get: (name) => params.get(name) }
}

/**
 * Query parameters by name, repeated names kept as arrays so strict validation can refuse them.
 * The names are the client's: kept on an object with no prototype, so `__proto__` is a name like
 * any other (refused as unknown), not a setter that drops it, and `constructor` is not found
 * already there ("given more than once").
 */
export function rawParams(event: H3Event, omit: readonly string[] = []): RawParams {
  const out: Record<string, string | string[]> = Object.create(null)
  for (const [k, v] of event.url.searchParams) {
    if (omit.includes(k)) continue
    const prev = Object.hasOwn(out, k) ? out[k] : undefined
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

/** The `Link` header of the next page: same query with `idAfter` moved past the last item. */
export function nextLink(event: H3Event, lastId: string | undefined, usedOffset: boolean): string | undefined {
  if (lastId === undefined) return undefined
  const url = new URL(event.url.href)
  if (usedOffset) {
    const offset = Number(url.searchParams.get('offset') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? 100)
    url.searchParams.set('offset', String(offset + limit))
  } else {
    url.searchParams.set('idAfter', lastId)
  }
  return `<${url.pathname}${url.search}>; rel="next"`
}
