import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import { bodyChunks } from './body-chunks.js'
import { HttpFailure } from './error-response.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from './json-structure.js'

export const MAX_BODY_BYTES = 1024 * 1024

/** Reads the raw body up to the limit: 413 past it, without buffering more than the limit. */
export async function readBodyBytes(event: H3Event, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(event.req.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  const chunks = bodyChunks(event)
  if (!chunks) return new Uint8Array()
  const parts: Uint8Array[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.byteLength
    // Past the limit the rest is not read: the answer closes the connection (request-life.ts).
    if (size > limit) throw tooLarge(limit)
    parts.push(chunk)
  }
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(size)
  let offset = 0
  for (const c of parts) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

/**
 * The request's JSON object body. An empty body counts as `{}` (actions without parameters);
 * a non-JSON content type is 415, malformed JSON, invalid UTF-8, a non-object, a key given twice
 * or nesting past MAX_JSON_DEPTH is 400100.
 */
export async function readJsonObject(event: H3Event): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(event)
  const type = event.req.headers.get('content-type')
  if (bytes.byteLength === 0 && !type) return {}
  if (!isJsonType(type)) {
    throw new HttpFailure('unsupported_media_type', `Unsupported content type ${JSON.stringify(type ?? '')}`, 'Send Content-Type: application/json.')
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new BillingError('invalid_body', 'The body is not valid UTF-8', 'Encode the JSON body as UTF-8.')
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new BillingError('invalid_body', `The body is not valid JSON: ${(e as Error).message}`, 'Send a JSON object.')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BillingError('invalid_body', 'The body must be a JSON object', 'Send a JSON object such as {"field": "value"}.')
  }
  const problem = jsonStructureProblem(text)
  if (problem) throw new BillingError('invalid_body', `The body is refused: ${problem}`, `Send a JSON object that gives each property once and nests at most ${MAX_JSON_DEPTH} levels.`)
  return value as Record<string, unknown>
}

export function isJsonType(type: string | null): boolean {
  if (!type) return false
  const [media, ...params] = type.split(';').map((s) => s.trim().toLowerCase())
  if (media !== 'application/json') return false
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"')
}

const tooLarge = (limit: number) =>
  new HttpFailure('body_too_large', `The body is larger than ${limit} bytes`, `Send at most ${limit / 1024 / 1024} MiB.`)
