import type { EventHandler } from 'h3'
import { HttpFailure } from '../error-response.js'
import { fullPath, type Route } from '../route.js'

/** What no route answered: 405 with `Allow` when the path exists with other methods, else 404000. */
export function notFound(routes: readonly Route[]): EventHandler {
  const methodsByPath = new Map<string, Set<string>>()
  for (const route of routes) {
    const path = fullPath(route)
    if (!methodsByPath.has(path)) methodsByPath.set(path, new Set())
    methodsByPath.get(path)!.add(route.method)
  }
  const patterns = [...methodsByPath].map(([path, methods]) => ({ re: toRegExp(path), methods: [...methods] }))
  return (event) => {
    const path = event.url.pathname
    const match = patterns.filter((p) => p.re.test(path))
    if (match.length) {
      const allow = [...new Set(match.flatMap((p) => p.methods))].sort().join(', ')
      throw new HttpFailure('method_not_allowed', `${event.req.method} is not allowed on ${path}`, `Allowed: ${allow}.`, { allow })
    }
    throw new HttpFailure('route_not_found', `No route ${path}`, 'See GET /backend/api/v1/openapi.json for the routes.')
  }
}

function toRegExp(path: string): RegExp {
  const body = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')
  return new RegExp(`^${body}/?$`)
}
