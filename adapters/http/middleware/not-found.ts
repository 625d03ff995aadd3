import type { EventHandler } from 'h3'
import { HttpFailure } from '../error-response.js'
import { fullPath, type Method, type Route } from '../route.js'

/** What no route answered: 405 with `Allow` when the path exists with other methods, else 404000. */
export function notFound(routes: readonly Route[]): EventHandler {
  const patterns = [...methodsByPath(routes)].map(([path, methods]) => ({ re: toRegExp(path), rank: rankOf(path), methods: [...methods] }))
  return (event) => {
    const path = event.url.pathname
    const match = patterns.filter((p) => p.re.test(path))
    if (match.length) {
      // The most specific path is the one that answers (`shadowedMethods`): `/tariffs/1/history` takes GET only.
      const top = match.reduce((rank, p) => (p.rank > rank ? p.rank : rank), '')
      const allow = [...new Set(match.filter((p) => p.rank === top).flatMap((p) => p.methods))].sort().join(', ')
      throw new HttpFailure('method_not_allowed', `${event.req.method} is not allowed on ${path}`, `Allowed: ${allow}.`, { allow })
    }
    throw new HttpFailure('route_not_found', `No route ${path}`, 'See GET /backend/api/v1/openapi.json for the routes.')
  }
}

/**
 * The methods a path does not take that a route with a parameter in its place does: h3 tries a
 * literal segment first but falls back to the parameter for another method, so the app answers
 * these with `notFound` (405) instead. POST `/tariffs/:id/history` is not an action named history.
 */
export function shadowedMethods(routes: readonly Route[]): [path: string, method: Method][] {
  const byPath = methodsByPath(routes)
  const shadowed = new Set<string>()
  for (const [path, methods] of byPath) {
    for (const [other, others] of byPath) {
      if (other !== path && covers(other, path)) for (const method of others) if (!methods.has(method)) shadowed.add(`${method} ${path}`)
    }
  }
  return [...shadowed].map((entry) => {
    const [method, path] = entry.split(' ')
    return [path, method as Method]
  })
}

function methodsByPath(routes: readonly Route[]): Map<string, Set<Method>> {
  const byPath = new Map<string, Set<Method>>()
  for (const route of routes) {
    const path = fullPath(route)
    if (!byPath.has(path)) byPath.set(path, new Set())
    byPath.get(path)!.add(route.method)
  }
  return byPath
}

/** Whether every path `path` matches, `general` matches too (a parameter where `path` has anything). */
function covers(general: string, path: string): boolean {
  const [a, b] = [general.split('/'), path.split('/')]
  return a.length === b.length && a.every((segment, i) => segment === b[i] || segment.startsWith(':'))
}

/** Literal segments before parameters, compared left to right as h3 tries them: `1101` beats `1100`. */
const rankOf = (path: string): string => path.split('/').map((s) => (s.startsWith(':') ? '0' : '1')).join('')

function toRegExp(path: string): RegExp {
  const body = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')
  return new RegExp(`^${body}/?$`)
}
