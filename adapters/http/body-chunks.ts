import type { IncomingMessage } from 'node:http'
import type { H3Event } from 'h3'
import { lifeOf, type RequestLife } from './request-life.js'

/** Sees each chunk of a body as it is read, then its end (the Idempotency-Key's digest). */
export interface BodyObserver {
  chunk(bytes: Uint8Array): void
  end(): void
}

/** Has the body's chunks seen by `observer` as they are read (one observer a request). */
export const observeBody = (event: H3Event, observer: BodyObserver): void => {
  event.context.bodyObserver = observer
}

/**
 * Has every read of the body throw `failure` (the Idempotency-Key check's, which met it first):
 * the route meets it where it reads its body, after its check of the item in its path.
 */
export const failBodyReads = (event: H3Event, failure: unknown): void => {
  event.context.bodyFailure = { failure }
}

/**
 * The body's chunks as the reader asks for them, each read bound to the request's life: a read
 * fails when the request ends or the client sends nothing within the body timeout. On node:http
 * that is node's request itself, read with backpressure: the web stream made of it (srvx) takes
 * every chunk the socket gives, so a server slower than its client held the unread rest of a
 * large upload in memory (bench/rating.ts; figures in bench/RESULTS.md), and going through it
 * cost a tenth of the CPU time of a small POST (bench/create-customers.ts). Stopping early (a
 * bad row) leaves the socket open for the error response. Null when there is no body.
 */
export function bodyChunks(event: H3Event): AsyncIterable<Uint8Array> | Iterable<Uint8Array> | null {
  const failed = event.context.bodyFailure as { failure: unknown } | undefined
  if (failed) throw failed.failure
  // Already read (and kept) by the idempotency check.
  const kept = event.context.rawBody
  if (kept instanceof Uint8Array) return [kept]
  const life = lifeOf(event)
  const observer = event.context.bodyObserver as BodyObserver | undefined
  const node = nodeRequestOf(event)
  if (node) return observed(nodeChunks(node, life), observer)
  return event.req.body && observed(readerChunks(event.req.body, life), observer)
}

/** Node's own request, when the server runs on node:http and nothing has read the body yet. */
export function nodeRequestOf(event: H3Event): IncomingMessage | null {
  const req = (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req
  return req && !event.req.bodyUsed && !req.readableEnded ? req : null
}

async function* nodeChunks(req: IncomingMessage, life: RequestLife | undefined): AsyncGenerator<Uint8Array> {
  const chunks = req.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>
  try {
    for (;;) {
      const next = await (life ? life.wait(chunks.next()) : chunks.next())
      if (next.done) return
      yield next.value
    }
  } finally {
    // A read still pending (the request ended) settles when the request is destroyed.
    void chunks.return?.()?.catch(() => {})
  }
}

/** A web stream's chunks (requests made in process, `app.request`). */
async function* readerChunks(stream: ReadableStream<Uint8Array>, life: RequestLife | undefined): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await (life ? life.wait(reader.read()) : reader.read())
      if (done) return
      yield value
    }
  } finally {
    if (life?.ended) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

async function* observed(chunks: AsyncGenerator<Uint8Array>, observer: BodyObserver | undefined): AsyncGenerator<Uint8Array> {
  if (!observer) return yield* chunks
  for await (const chunk of chunks) {
    observer.chunk(chunk)
    yield chunk
  }
  observer.end()
}
