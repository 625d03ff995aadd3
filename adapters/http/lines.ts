import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import { HttpFailure } from './error-response.js'

/**
 * The request body as lines, decoded as strict UTF-8 while it streams in: memory holds one
 * chunk and one partial line, never the body. When the Idempotency-Key check has read the
 * body already (its fingerprint), the lines come from the bytes it kept.
 */
export async function* bodyLines(event: H3Event): AsyncGenerator<string> {
  const kept = event.context.rawBody
  const stream = kept instanceof Uint8Array ? streamOf(kept) : event.req.body
  if (!stream) return
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const reader = stream.getReader()
  let pending = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      let text: string
      try {
        text = done ? decoder.decode() : decoder.decode(value, { stream: true })
      } catch {
        throw new BillingError('invalid_body', 'The body is not valid UTF-8', 'Send the file encoded as UTF-8.')
      }
      pending += text
      let nl = pending.indexOf('\n')
      while (nl >= 0) {
        yield pending.slice(0, nl).replace(/\r$/, '')
        pending = pending.slice(nl + 1)
        nl = pending.indexOf('\n')
      }
      if (done) break
    }
    if (pending !== '') yield pending.replace(/\r$/, '')
  } finally {
    reader.releaseLock()
  }
}

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes)
      controller.close()
    },
  })

/** Refuses a body that is not CSV (415). */
export function assertCsv(event: H3Event): void {
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'text/csv') {
    throw new HttpFailure('unsupported_media_type', `Unsupported content type ${JSON.stringify(type)}`, 'Send the usage file as Content-Type: text/csv.')
  }
}
