import type { H3Event } from 'h3'
import type { RawParams } from '../../core/resources/list-request.js'

/** Query parameters by name, repeated names kept as arrays so strict validation can refuse them. */
export function rawParams(event: H3Event, omit: readonly string[] = []): RawParams {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of event.url.searchParams) {
    if (omit.includes(k)) continue
    const prev = out[k]
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
