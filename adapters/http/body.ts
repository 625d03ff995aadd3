import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import { HttpFailure } from './error-response.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from './json-structure.js'

export const MAX_BODY_BYTES = 1024 * 1024

/** Reads the raw body up to the limit: 413 past it, without buffering more than the limit. */
export async function readBodyBytes(event: H3Event, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  // Already read (and kept) by the idempotency check.
  if (event.context.rawBody instanceof Uint8Array) return event.context.rawBody
  const declared = Number(event.req.headers.get('content-length') ?? NaN)
  if (declared > limit) throw tooLarge(limit)
  const node = nodeRequestOf(event)
  if (node) return readNodeBody(node, limit)
  const stream = event.req.body
  if (!stream) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

/** Node's own request, when the server runs on node:http and nothing has read the body yet. */
export function nodeRequestOf(event: H3Event): IncomingMessage | null {
  const req = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req
  return req && !event.req.bodyUsed && !req.readableEnded ? req : null
}

/**
 * Reads node's request stream directly: going through the web stream srvx makes of it
 * (Readable.toWeb) cost a tenth of the CPU time of a small POST (bench/create-customers.ts).
 * Past the limit the rest is left to node, which discards it once the response is sent.
 */
function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) {
        done()
        reject(tooLarge(limit))
      } else chunks.push(chunk)
    }
    const onEnd = () => {
      done()
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
    }
    const onError = (error: Error) => {
      done()
      reject(error)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
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
