import { billLengths } from '../../../core/documents/bill-pages.js'
import type { FilterKind, Resource } from '../../../core/fields/resource.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../../core/resources/list-request.js'
import type { JsonSchema } from './field-schemas.js'

/** An OpenAPI parameter object. */
export type Parameter = { name: string; in: 'query' | 'path' | 'header'; [key: string]: unknown }

const integer = (minimum: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', minimum, ...extra })
const datetime: JsonSchema = { type: 'string', format: 'date-time' }
const date: JsonSchema = { type: 'string', format: 'date' }
/** A flag is given bare (`?active`), as `true`, or as `false` (off). */
const flag: JsonSchema = { type: 'string', enum: ['true', 'false', ''] }

/** Parameters every list takes (contract 2, Lists). */
const paging: Record<string, [JsonSchema, string]> = {
  limit: [integer(1, { maximum: MAX_LIMIT, default: DEFAULT_LIMIT }), `maximum items to return (1..${MAX_LIMIT}, default ${DEFAULT_LIMIT})`],
  offset: [integer(0, { default: 0 }), 'number of items to skip'],
  idAfter: [integer(0), 'only items with a higher ID'],
  createdSince: [datetime, 'only items created since (YYYY-MM-DDTHH:mm:ss, optional fraction, Z or ±HH:MM; none means UTC)'],
  updatedSince: [datetime, 'only items updated since (same datetime form)'],
}

/** Route flags that are not filters of the resource (contract 6). */
const routeFlags: Record<string, string> = {
  expandNumbers: 'add each item\'s numbers as an array `numbers`',
  expandServices: 'add each item\'s services as an array `services`',
  expandFeatures: 'add each item\'s features as an array `features`',
  numberActive: 'when expanding numbers, only active ones',
  serviceActive: 'when expanding services, only active ones',
  featureActive: 'when expanding features, only active ones',
  includeNumbers: 'also list the features on the customer\'s numbers',
  includeServices: 'also list the features on the customer\'s services',
}

/** Route parameters that take a value but are not filters (an invoice document's page list, contract 10.5). */
const routeValues: Record<string, [JsonSchema, string]> = {
  pages: [
    { type: 'string', enum: [...billLengths], default: 'long' },
    "with a PDF or HTML document: the customer's shortBillPages or longBillPages (an empty list means every page)",
  ],
}

/** The query parameter `name` of a route, typed from the paging rules or the resource's filters. */
export function queryParameter(name: string, resource?: Resource): Parameter {
  const fixed = paging[name] ?? routeValues[name]
  if (fixed) return parameter(name, fixed[0], fixed[1])
  const filter = resource?.filters.find((f) => f.name === name)
  if (filter) return parameter(name, filterSchema(filter.filter), filter.description, filter.filter.kind === 'flag')
  return parameter(name, flag, routeFlags[name] ?? name, true)
}

function filterSchema(kind: FilterKind): JsonSchema {
  switch (kind.kind) {
    case 'equals':
    case 'digits':
      return { type: 'string' }
    case 'oneOf':
      return { type: 'string', enum: [...kind.values] }
    case 'hasName':
      return { type: 'string', enum: [kind.any, ...kind.values] }
    case 'flag':
      return flag
    case 'since':
      return datetime
    case 'value':
      // A value filter is not a flag: `false` selects the rows where it is false.
      return kind.type === 'boolean' ? { type: 'string', enum: ['true', 'false'] } : date
  }
}

function parameter(name: string, schema: JsonSchema, description: string, isFlag = false): Parameter {
  return {
    name,
    in: 'query',
    description: isFlag ? `${description} (a flag: give it bare or as true; false means off)` : description,
    required: false,
    schema,
    ...(isFlag ? { allowEmptyValue: true } : {}),
  }
}
