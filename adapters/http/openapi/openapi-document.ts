import type { Resource, ResourceName } from '../../../core/fields/resource.js'
import type { Presets } from '../../../core/presets/presets.js'
import { BASE_PATH, type Route } from '../route.js'
import { errorSchema } from './error-responses.js'
import type { JsonSchema } from './field-schemas.js'
import { pathsOf } from './operations.js'
import { resourceSchemas } from './resource-schemas.js'

/** Everything the document is generated from: nothing in it is written by hand. */
export interface DocumentSource {
  readonly routes: readonly Route[]
  readonly resources: ReadonlyMap<ResourceName, Resource>
  /** The platform's configured lists (a BILLING_PRESETS_FILE shows up as the enums). */
  readonly presets: Presets
  /** Where the API is served (`/`, or the mount point); the paths below carry the base path. */
  readonly serverUrl?: string
}

const description = `Billing and account management for telecom resellers and carriers.

- Base path \`${BASE_PATH}\`; a trailing slash is optional on every path.
- Every request needs \`Authorization: Bearer <key>\` except the routes marked as public (\`security: []\`).
- Create is \`POST\` (201 with a \`Location\` header), update is \`PATCH\` (partial merge: absent unchanged, \`null\` clears),
  delete is \`DELETE\` (200 with the item as it was). A method a path does not list — \`PUT\` included — answers
  405 with \`error_code\` 405001 and an \`Allow\` header; an unknown path answers 404000.
- Every response lists every field of the resource; unset fields are \`null\`, unset lists \`[]\`. Amounts are exact to
  4 decimal places; dates are \`YYYY-MM-DD\`; IDs are positive integers written as strings.
- Preset fields take a configured name; \`GET ${BASE_PATH}/presets/<collection>\` lists the allowed values.
- Every error is \`{"error", "error_code", "hint"}\`; each operation lists the codes it can answer.`

/** The OpenAPI 3.1 document of the route table, with schemas from the field catalogue. */
export function toOpenApiDocument(source: DocumentSource): JsonSchema {
  const paths = pathsOf(source.routes, source)
  return {
    openapi: '3.1.0',
    info: { title: 'Telecom billing API', version: '1', description },
    servers: [{ url: source.serverUrl ?? '/', description: 'this server' }],
    tags: tagsOf(paths),
    paths,
    components: {
      schemas: { Error: errorSchema, ...resourceSchemas(source.resources.values(), source.presets) },
      headers: {
        'X-Request-Id': { description: "The request's ID (the one it sent, or a new one)", schema: { type: 'string' } },
        Location: { description: 'URL of the created item', schema: { type: 'string' } },
        Link: { description: 'When more items follow: `<next page URL>; rel="next"`', schema: { type: 'string' } },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (`npm run apikey -- create --name NAME`)' },
      },
    },
    security: [{ bearer: [] }],
  }
}

/** The tags in the order the route table first uses them. */
function tagsOf(paths: Record<string, Record<string, JsonSchema>>): JsonSchema[] {
  const names = new Set<string>()
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) for (const tag of (op.tags as string[] | undefined) ?? []) names.add(tag)
  }
  return [...names].map((name) => ({ name }))
}
