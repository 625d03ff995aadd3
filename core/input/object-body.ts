import * as v from 'valibot'
import { BillingError } from '../errors.js'

/** A request body as every use case takes it: a JSON object (not an array, not null). */
export const JsonObject = v.custom<Record<string, unknown>>(
  (body) => typeof body === 'object' && body !== null && !Array.isArray(body),
  'a JSON object',
)

/** The body of a request as an object, or `invalid_body` (contract 2: a body must be a JSON object). */
export function objectBody(body: unknown, hint = 'Send a JSON object such as {"field": "value"}.'): Record<string, unknown> {
  // The body itself, not the schema's copy: a copy would drop keys such as "__proto__", which the
  // field and parameter checks must see to refuse them.
  if (!v.is(JsonObject, body)) throw new BillingError('invalid_body', 'The body must be a JSON object', hint)
  return body
}
