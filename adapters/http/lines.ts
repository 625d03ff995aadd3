import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import { bodyChunks } from './body-chunks.js'
import { HttpFailure } from './error-response.js'

/**
 * The request body as text, decoded as strict UTF-8 while it streams in: memory holds one
 * chunk, never the body. When the Idempotency-Key check has read the body already (its
 * fingerprint), the text comes from the bytes it kept.
 */
export async function* bodyText(event: H3Event): AsyncGenerator<string> {
  const chunks = bodyChunks(event)
  if (!chunks) return
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode()
    } catch {
      throw new BillingError('invalid_body', 'The body is not valid UTF-8', 'Send the file encoded as UTF-8.')
    }
  }
  for await (const chunk of chunks) {
    const text = decode(chunk)
    if (text) yield text
  }
  const rest = decode()
  if (rest) yield rest
}

/** Refuses a body that is not CSV (415), its hint naming the document the route takes (`the usage file`). */
export function assertCsv(event: H3Event, document: string): void {
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'text/csv') {
    throw new HttpFailure('unsupported_media_type', `Unsupported content type ${JSON.stringify(type)}`, `Send ${document} as Content-Type: text/csv.`)
  }
}
