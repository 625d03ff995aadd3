import fc from 'fast-check'
import { fullPath, type Route } from '../../adapters/http/route.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import type { Presets } from '../../core/presets/presets.js'
import { fieldValue, objectBody, rawBody, toJsonText } from './fuzz-bodies.js'
import { dbPoison, garbageIds, headerString, hostileString, oddStrings, sqlStrings } from './fuzz-values.js'

export type KeyKind = 'admin' | 'low' | 'revoked' | 'unknown' | 'none' | 'malformed'

/** One generated request; `key` is resolved to a real header by the test. */
export interface FuzzRequest {
  readonly route: Route
  readonly method: string
  readonly url: string
  readonly key: KeyKind
  readonly malformedAuth: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
}

export interface FuzzWorld {
  readonly routes: readonly Route[]
  readonly resources: ReadonlyMap<ResourceName, Resource>
  readonly presets: Presets
  /** Real IDs per collection, created in setup. */
  readonly ids: Readonly<Record<string, readonly string[]>>
}

const contentTypes = [
  'application/json; charset=utf-8', 'application/json;charset="utf-8"', 'APPLICATION/JSON', 'application/json; charset=latin1',
  'text/plain', 'text/csv', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/vnd.api+json',
  'application/json, text/plain', '', 'application/json; charset=utf-16',
]

/** Requests for every route of the table: its path with real and garbage IDs, hostile query, headers and body. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...world.routes).chain((route) => requestFor(world, route))
}

function requestFor(world: FuzzWorld, route: Route): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD')),
      path: pathFor(world, route),
      slash: fc.boolean(),
      query: queryFor(world, route),
      key: fc.oneof({ weight: 16, arbitrary: fc.constant<KeyKind>('admin') }, fc.constantFrom<KeyKind>('low', 'revoked', 'unknown', 'none', 'malformed')),
      malformedAuth: fc.oneof(fc.constantFrom('Bearer', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', 'bearer x', 'Bearer a b', `Bearer ${'k'.repeat(600)}`), headerString),
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, fc.constantFrom(...contentTypes), fc.constant(null)),
      extra: extraHeaders(),
      body: bodyFor(world, route),
    })
    .map((r) => {
      const headers: Record<string, string> = { ...r.extra }
      if (r.contentType !== null) headers['content-type'] = route.doc.contentType === 'text/csv' && r.contentType === 'application/json' ? 'text/csv' : r.contentType
      return {
        [fc.toStringMethod]: () => `${r.method} ${r.path}… (${route.method} ${route.path})`,
        route,
        method: r.method,
        url: `${r.path}${r.slash ? '/' : ''}${r.query}`,
        key: r.key,
        malformedAuth: r.malformedAuth,
        headers,
        body: r.body,
      }
    })
}

/** Each `:param` takes an ID of the collection named just before it: real, of another collection, or garbage. */
function pathFor(world: FuzzWorld, route: Route): fc.Arbitrary<string> {
  const parts = fullPath(route).split('/')
  const all = Object.values(world.ids).flat()
  const slots = parts.map((p, i) => {
    if (!p.startsWith(':')) return fc.constant(p)
    const own = world.ids[parts[i - 1]] ?? []
    return fc.oneof(
      { weight: own.length ? 6 : 0, arbitrary: fc.constantFrom(...(own.length ? own : ['1'])) },
      { weight: 1, arbitrary: fc.constantFrom(...(all.length ? all : ['1'])) },
      { weight: 3, arbitrary: fc.constantFrom(...garbageIds) },
      { weight: 1, arbitrary: hostileString.map(pct) },
    )
  })
  return fc.tuple(...slots).map((s) => s.join('/'))
}

function queryFor(world: FuzzWorld, route: Route): fc.Arbitrary<string> {
  const own = [...(route.doc.query ?? [])]
  const actions = (route.doc.actions ?? []).map((a) => a.name)
  const name = fc.oneof(
    { weight: own.length ? 6 : 0, arbitrary: fc.constantFrom(...(own.length ? own : ['limit'])) },
    { weight: 1, arbitrary: fc.constantFrom('limit', 'offset', 'idAfter', 'Limit', 'LIMIT', 'action', 'x', '', 'limit[]', '__proto__') },
    { weight: 1, arbitrary: hostileString },
  )
  const value = fc.oneof(
    { weight: actions.length ? 4 : 0, arbitrary: fc.constantFrom(...(actions.length ? actions : ['x'])) },
    fc.constantFrom('', 'true', 'false', '1', '0', '1000', '1001', '-1', '1e3', '100.0', '2026-01-01T00:00:00Z', '2025-02-29T00:00:00', '2025-02-29'),
    fc.constantFrom(...Object.values(world.ids).flat().slice(0, 20), '9999999'),
    fc.constantFrom(...sqlStrings, ...oddStrings),
    dbPoison,
    hostileString,
  )
  const pair = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(name, value).map(([n, v]) => `${pct(n)}=${pct(v)}`) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', 'a=%E0%A4%A', 'a=%FF', 'limit=%00', '=', '&&', 'action', 'limit', 'a=1=2', 'limit=1&limit=2') },
  )
  const needsAction = actions.length > 0
  return fc.tuple(fc.array(pair, { maxLength: 4 }), fc.boolean(), fc.constantFrom(...(actions.length ? actions : ['x']))).map(([pairs, withAction, action]) => {
    const all = needsAction && withAction ? [`action=${action}`, ...pairs] : pairs
    return all.length ? `?${all.join('&')}` : ''
  })
}

/** Headers beyond auth and content type, each present now and then. */
function extraHeaders(): fc.Arbitrary<Record<string, string>> {
  const sometimes = (arb: fc.Arbitrary<string>, oneIn: number) =>
    fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })
  return fc
    .record({
      'x-request-id': sometimes(headerString, 4),
      'idempotency-key': sometimes(headerString, 6),
      accept: sometimes(fc.constantFrom('application/x-7z-compressed', 'application/json;q=0, application/x-7z-compressed', '*/*', 'text/html', 'q=NaN'), 6),
      'content-length': sometimes(fc.constantFrom('99999999999', '-1', 'abc'), 40),
    })
    .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>)
}

/** A JSON object of the route's field or action parameter names with hostile values, a raw body, or none. */
function bodyFor(world: FuzzWorld, route: Route): fc.Arbitrary<string | Uint8Array | undefined> {
  const resource = route.doc.resource ? world.resources.get(route.doc.resource) : undefined
  const fields = resource?.fields ?? []
  const params = (route.doc.actions ?? []).flatMap((a) => a.params ?? [])
  const names = [...fields.map((f) => f.name), ...params.map((p) => p.name)]
  const byName = new Map([...fields, ...params].map((f) => [f.name, f]))
  const all = Object.values(world.ids).flat()
  const value = (name: string, hostile: boolean) => {
    const field = byName.get(name)
    const list = field?.list ? world.presets.lists[field.list] ?? [] : []
    return fieldValue(field, list, all, hostile)
  }
  const csv = fc
    .array(fc.oneof(hostileString, fc.constant('callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier')), { maxLength: 4 })
    .map((lines) => lines.join('\n'))
  return fc.oneof(
    { weight: 8, arbitrary: objectBody(names, value) },
    { weight: 3, arbitrary: rawBody },
    { weight: route.doc.contentType === 'text/csv' ? 4 : 0, arbitrary: csv },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(toJsonText({ obj: [] })) },
  )
}

/** Percent-encodes like encodeURIComponent, lone surrogates too (as the UTF-8 of U+FFFD). */
function pct(s: string): string {
  try {
    return encodeURIComponent(s)
  } catch {
    return [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
  }
}
