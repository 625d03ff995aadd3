import type { Route } from '../route.js'
import type { JsonSchema } from './field-schemas.js'

/** Every error body of the API (contract 2, Errors). */
export const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error', 'error_code', 'hint'],
  properties: {
    error: { type: 'string', description: 'what went wrong' },
    error_code: { type: 'integer', description: 'stable code; its first three digits are the HTTP status' },
    hint: { type: 'string', description: 'what to do about it' },
  },
  additionalProperties: false,
}

/** What each `error_code` means (contract 2's table). */
export const errorMeanings: Readonly<Record<number, string>> = {
  400100: 'the body is not JSON, or not a JSON object',
  400101: 'a field is unknown, of the wrong type, malformed, or not a configured preset value',
  400102: 'a read-only field with a different value',
  400103: 'invalid query parameter',
  400201: 'invalid input to changeRecurringCharge',
  400501: 'action not recognised',
  400502: "the item's state does not allow the action, or a precondition failed",
  400503: 'a required action parameter is missing',
  400504: 'an action parameter has an invalid value',
  401001: 'no or malformed Authorization: Bearer header, or an unknown or revoked key',
  403101: 'expert level 5 required',
  403102: 'data-protection download access required',
  403103: 'expert level 3 required',
  404000: 'no such route',
  404001: 'no such resource (or no such parent in the path)',
  404102: 'disaster recovery file not found or expired',
  405001: 'method not allowed on this path (see the Allow header)',
  409001: 'a unique field is taken',
  409002: 'the tariff is in use and cannot be deleted',
  409003: "the billing run's dates are locked, or another run is in progress",
  409004: 'Idempotency-Key reused with a different request',
  413001: 'body too large (over 1 MiB)',
  415001: 'unsupported content type (send application/json)',
  429001: 'rate limit exceeded for this key (see Retry-After)',
  500521: 'generatePaymentLinks failed',
  500000: 'unexpected failure; report the X-Request-Id',
}

const statusOf = (code: number): number => Math.floor(code / 1000)

/** The error codes a route can answer: the generic ones of contract 2 for its shape, plus its own. */
export function routeErrorCodes(route: Route): number[] {
  const { doc } = route
  const codes: number[] = [500000]
  if (!route.public) codes.push(401001, 429001)
  if (route.access === 'expertLevel5') codes.push(403101)
  if (route.access === 'dataProtectionDownload') codes.push(403102)
  if (route.access === 'expertLevel3') codes.push(403103)
  if (route.path.includes(':')) codes.push(404001)
  if (!route.public && doc.kind !== 'create' && doc.kind !== 'update') codes.push(400103)
  if (route.method === 'POST' || route.method === 'PATCH') codes.push(400100, 413001, 415001)
  if (route.method === 'POST') codes.push(409004)
  if (doc.kind === 'create' || doc.kind === 'update') codes.push(400101, 400102)
  codes.push(...(doc.errors ?? []))
  return [...new Set(codes)].sort((a, b) => a - b)
}

/** One response per HTTP status, naming the codes it carries (as an enum of `error_code`). */
export function errorResponses(codes: readonly number[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, number[]>()
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code])
  const out: Record<string, JsonSchema> = {}
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: group.map((c) => `\`${c}\`: ${errorMeanings[c] ?? 'see the hint'}`).join('; '),
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
        ...(status === 429 ? { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } : {}),
      },
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error_code: { enum: group } } }] },
        },
      },
    }
  }
  return out
}
