import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Route } from '../route.js'
import { actionResultSchema } from './action-schemas.js'
import type { JsonSchema } from './field-schemas.js'
import { schemaRef } from './resource-schemas.js'

const header = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` })

/** The successful answer of a route, by its kind: 201 + Location for creates, 200 otherwise. */
export function successResponses(route: Route, resources: ReadonlyMap<ResourceName, Resource>): Record<string, JsonSchema> {
  const { doc } = route
  const resource = doc.resource ? resources.get(doc.resource) : undefined
  const one = resource ? expanded(resource, doc.query ?? [], resources) : undefined
  // Other media types by Accept (an invoice's PDF and HTML documents): text, PDF as binary.
  const alternatives = Object.fromEntries(
    Object.entries(doc.alternatives ?? {}).map(([type, description]) => [
      type,
      { schema: type.startsWith('text/') ? { type: 'string', description } : { type: 'string', format: 'binary', description } },
    ]),
  )
  const ok = (description: string, schema: JsonSchema, headers: Record<string, JsonSchema> = {}) => ({
    description,
    headers: { 'X-Request-Id': header('X-Request-Id'), ...headers },
    content: { [doc.contentType ?? 'application/json']: { schema }, ...alternatives },
  })
  switch (doc.kind) {
    case 'list':
      return { 200: ok('The page, ordered by ID ascending', { type: 'array', items: one ?? {} }, { Link: header('Link') }) }
    case 'create':
      return { 201: ok(`The created ${resource?.singular ?? 'item'}`, one ?? { type: 'object' }, { Location: header('Location') }) }
    case 'get':
    case 'update':
      return { 200: ok(`The ${resource?.singular ?? 'item'}`, one ?? { type: 'object' }) }
    case 'delete':
      return { 200: ok(`The ${resource?.singular ?? 'item'} as it was`, one ?? { type: 'object' }) }
    case 'action':
      return { 200: ok('The result of the action', actionResultSchema(doc, one)) }
    case 'other':
      return { 200: ok(doc.summary, doc.contentType ? { type: 'string' } : { type: 'object' }) }
  }
}

const expansions = [
  ['expandNumbers', 'numbers'],
  ['expandServices', 'services'],
  ['expandFeatures', 'features'],
] as const

/**
 * The resource's wire shape, plus the arrays that the route's expansion flags add (contract 6):
 * `numbers`, `services`, `features`; expanded numbers and services carry their own `features`.
 */
function expanded(resource: Resource, query: readonly string[], resources: ReadonlyMap<ResourceName, Resource>): JsonSchema {
  const present = expansions.filter(([flag, name]) => query.includes(flag) && resources.has(name))
  if (present.length === 0) return schemaRef(resource)
  const features = resources.get('features')
  const withFeatures = present.some(([, name]) => name === 'features') && features
  const properties: Record<string, JsonSchema> = {}
  for (const [flag, name] of present) {
    const child = schemaRef(resources.get(name)!)
    const items =
      name !== 'features' && withFeatures
        ? { allOf: [child, { type: 'object', properties: { features: { type: 'array', items: schemaRef(features) } } }] }
        : child
    properties[name] = { type: 'array', items, description: `present with ${flag}` }
  }
  return { allOf: [schemaRef(resource), { type: 'object', properties }] }
}
