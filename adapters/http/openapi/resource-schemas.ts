import type { Field } from '../../../core/fields/field.js'
import type { Resource } from '../../../core/fields/resource.js'
import type { Presets } from '../../../core/presets/presets.js'
import { fieldSchema, type JsonSchema } from './field-schemas.js'

/** The three shapes of a resource: as answered, as created, as updated. */
export type ResourceShape = 'wire' | 'create' | 'update'

const suffix: Record<ResourceShape, string> = { wire: '', create: 'Create', update: 'Update' }

/** `customer contact` → `CustomerContact`, `CustomerContactCreate`, ... */
export function schemaName(resource: Resource, shape: ResourceShape = 'wire'): string {
  const base = resource.singular.replace(/(^|\s+)(\w)/g, (_, _s: string, c: string) => c.toUpperCase())
  return base + suffix[shape]
}

export const schemaRef = (resource: Resource, shape: ResourceShape = 'wire'): JsonSchema => ({
  $ref: `#/components/schemas/${schemaName(resource, shape)}`,
})

/** The component schemas of every resource, keyed by name. */
export function resourceSchemas(resources: Iterable<Resource>, presets: Presets): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  for (const resource of resources) {
    out[schemaName(resource)] = wireSchema(resource, presets)
    out[schemaName(resource, 'create')] = createSchema(resource, presets)
    out[schemaName(resource, 'update')] = updateSchema(resource, presets)
  }
  return out
}

/** Every field except internal ones, always present: unset ones are null, unset lists `[]`. */
function wireSchema(resource: Resource, presets: Presets): JsonSchema {
  const fields = resource.fields.filter((f) => !f.internal)
  return {
    type: 'object',
    description: `A ${resource.singular} as every response gives it: every field present, unset ones null, unset lists [].`,
    required: fields.map((f) => f.name),
    properties: properties(fields, presets, 'response'),
  }
}

const writableOnCreate = (f: Field): boolean => !f.internal && (!f.readOnly || !!f.createOnly)

/** The writable fields, plus those that may be given only on create (status, statusReason). */
function createSchema(resource: Resource, presets: Presets): JsonSchema {
  const fields = resource.fields.filter(writableOnCreate)
  const required = fields.filter((f) => f.required).map((f) => f.name)
  return {
    type: 'object',
    description: `A new ${resource.singular}: fields not given are unset. Property names are case-sensitive; an unknown one is refused (400101).`,
    ...(required.length ? { required } : {}),
    properties: properties(fields, presets, 'request'),
    additionalProperties: false,
  }
}

/** Partial merge: every writable field optional, `null` clears it (except a required one). */
function updateSchema(resource: Resource, presets: Presets): JsonSchema {
  const fields = resource.fields.filter((f) => !f.internal && !f.readOnly)
  return {
    type: 'object',
    description:
      `Changes to a ${resource.singular}: an absent field is unchanged, null clears it, {} changes nothing. ` +
      'Read-only fields may be sent back unchanged (GET → edit → PATCH round-trips); a different value is refused (400102).',
    properties: properties(fields, presets, 'request'),
  }
}

function properties(fields: readonly Field[], presets: Presets, use: 'response' | 'request'): Record<string, JsonSchema> {
  return Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, presets, use)]))
}
