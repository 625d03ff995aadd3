import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Presets } from '../../../core/presets/presets.js'
import { fullPath, type Route } from '../route.js'
import { actionBodySchema, actionQueryParameter } from './action-schemas.js'
import { errorResponses, routeErrorCodes } from './error-responses.js'
import type { JsonSchema } from './field-schemas.js'
import { queryParameter, type Parameter } from './query-parameters.js'
import { schemaRef } from './resource-schemas.js'
import { successResponses } from './success-responses.js'

/** What the operations are generated from besides the routes. */
export interface OperationSource {
  readonly resources: ReadonlyMap<ResourceName, Resource>
  readonly presets: Presets
}

/** h3's `/customers/:id` → OpenAPI's `/customers/{id}`. */
export const toOpenApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}')

/** The `paths` object: one operation per route, under its full path. */
export function pathsOf(routes: readonly Route[], source: OperationSource): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const route of routes) {
    const path = toOpenApiPath(fullPath(route))
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = operation(route, source)
  }
  return paths
}

const access = {
  expertLevel5: 'Needs a key with expert level 5 (Full); otherwise 403101.',
  expertLevel3: 'Needs a key with expert level 3 (Standard) or above; otherwise 403103.',
  dataProtectionDownload: 'Needs a key with the dataProtectionDownload permission; otherwise 403102.',
} as const

function operation(route: Route, source: OperationSource): JsonSchema {
  const { doc } = route
  const resource = doc.resource ? source.resources.get(doc.resource) : undefined
  const body = requestBody(route, resource, source.presets)
  return {
    operationId: operationId(route, (name) => source.resources.get(name as ResourceName)?.singular),
    summary: doc.summary,
    ...(route.access ? { description: access[route.access], 'x-access': route.access } : {}),
    tags: [tagOf(route)],
    parameters: [...pathParameters(route, source.resources), ...queryParameters(route, resource), ...headerParameters(route)],
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(route, source.resources), ...errorResponses(routeErrorCodes(route)) },
    ...(route.public ? { security: [] } : {}),
  }
}

/**
 * What the operation does, for generated clients: `listCustomers`, `createCustomer`,
 * `getCustomer`, `listCustomerNumbers` (a list under a parent), `runCustomerAction` (the
 * `?action=` route), `applyIncreaseTariff` (an action route of its own). Routes of no kind keep
 * a name made of their method and path (`getHealthz`).
 */
export function operationId(route: Route, singularOf: (name: string) => string | undefined): string {
  const segments = route.path.split('/').filter(Boolean)
  const resource = route.doc.resource
  const one = resource ? pascal(singularOf(resource) ?? resource) : ''
  // `/customers/:id/numbers`: the parent is the collection before the `:id`.
  const parent = segments.length >= 3 && segments[1].startsWith(':') && segments[2] === resource ? pascal(singularOf(segments[0]) ?? segments[0]) : ''
  switch (resource ? route.doc.kind : 'other') {
    case 'list':
      return `list${parent}${cap(resource!)}`
    case 'create':
      return `create${parent}${one}`
    case 'get':
      return `get${one}`
    case 'update':
      return `update${one}`
    case 'delete':
      return `delete${one}`
    case 'action': {
      const last = segments[segments.length - 1]
      return last.startsWith(':') ? `run${one}Action` : `${last}${one}`
    }
    default: {
      const words = segments.map((w) => (w.startsWith(':') ? `By${cap(w.slice(1))}` : cap(w.replace(/[^A-Za-z0-9]/g, ''))))
      return route.method.toLowerCase() + words.join('')
    }
  }
}

/** `fixed fee tariff` → `FixedFeeTariff`. */
const pascal = (words: string): string => words.split(/\s+/).map(cap).join('')

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

/** The resource for routes that have one; otherwise the first path segment (presets, docs). */
function tagOf(route: Route): string {
  if (route.doc.resource) return route.doc.resource
  if (route.absolute) return 'service'
  const first = route.path.split('/').filter(Boolean)[0] ?? 'service'
  return first === 'openapi.json' ? 'docs' : first
}

function pathParameters(route: Route, resources: ReadonlyMap<ResourceName, Resource>): Parameter[] {
  const segments = route.path.split('/')
  return segments.flatMap((segment, i) => {
    if (!segment.startsWith(':')) return []
    // A tariff's action is named in its path (contract 2): not an ID.
    if (segment === ':action') return [{ name: 'action', in: 'path' as const, required: true, description: 'The action name', schema: { type: 'string' } }]
    const owner = resources.get(segments[i - 1] as ResourceName)
    return [
      {
        name: segment.slice(1),
        in: 'path' as const,
        required: true,
        description: owner ? `ID of the ${owner.singular}` : 'ID',
        schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
      },
    ]
  })
}

function queryParameters(route: Route, resource: Resource | undefined): Parameter[] {
  return (route.doc.query ?? []).map((name) =>
    name === 'action' && route.doc.kind === 'action' ? actionQueryParameter(route.doc) : queryParameter(name, resource),
  )
}

/** A POST may carry an Idempotency-Key (contract 2, Retries). */
function headerParameters(route: Route): Parameter[] {
  if (route.method !== 'POST' || route.public) return []
  return [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A repeat with the same key, method, path and body within 24 hours returns the first response; a different request with the same key → 409004.',
      schema: { type: 'string' },
    },
  ]
}

function requestBody(route: Route, resource: Resource | undefined, presets: Presets): JsonSchema | undefined {
  const json = (schema: JsonSchema, required: boolean) => ({ required, content: { 'application/json': { schema } } })
  if (route.doc.body) return json(route.doc.body, true)
  switch (route.doc.kind) {
    case 'create':
      return json(resource ? schemaRef(resource, 'create') : { type: 'object' }, true)
    case 'update':
      return json(resource ? schemaRef(resource, 'update') : { type: 'object' }, true)
    case 'action':
      return json(actionBodySchema(route.doc, presets), false)
    default:
      return route.method === 'POST' || route.method === 'PATCH' ? json({ type: 'object' }, false) : undefined
  }
}
