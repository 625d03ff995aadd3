import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import type { IdempotencyStore } from '../../core/ports/idempotency-store.js'
import { readBodyBytes } from './body.js'
import { requestIdOf } from './respond.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
const KEY = /^[\x21-\x7e]{1,255}$/
const WAIT_STEP_MS = 20
const WAIT_MAX_MS = 30_000

/**
 * Runs a POST at most once per Idempotency-Key (contract 2): the first request's response is
 * stored and replayed to repeats with the same method, path and body for 24 hours; a repeat
 * racing the first waits for it; the same key on a different request is 409004. Unexpected
 * failures (5xx) are not stored, so a retry runs again.
 */
export async function withIdempotency(
  event: H3Event,
  store: IdempotencyStore,
  scope: string,
  key: string,
  run: () => Promise<Response>,
): Promise<Response> {
  if (!KEY.test(key)) {
    throw new BillingError('invalid_body', 'Idempotency-Key must be 1 to 255 visible ASCII characters', 'Send a UUID as Idempotency-Key.')
  }
  const body = await readBodyBytes(event)
  event.context.rawBody = body
  const fingerprint = createHash('sha256')
    .update(`${event.req.method} ${event.url.pathname}${event.url.search}\n${event.req.headers.get('content-type') ?? ''}\n`)
    .update(body)
    .digest('hex')
  const started = Date.now()
  for (;;) {
    const claim = await store.claim(scope, key, fingerprint, Date.now(), IDEMPOTENCY_TTL_MS)
    switch (claim.kind) {
      case 'claimed':
        return runAndStore(event, store, scope, key, run)
      case 'replay':
        return new Response(claim.response.body, {
          status: claim.response.status,
          headers: { ...claim.response.headers, 'x-request-id': requestIdOf(event), 'idempotent-replayed': 'true' },
        })
      case 'mismatch':
        throw new BillingError(
          'idempotency_conflict',
          'This Idempotency-Key was used with a different request',
          'Use a new key for a new request; repeat a request only with its exact method, path and body.',
        )
      case 'pending':
        if (Date.now() - started > WAIT_MAX_MS) {
          throw new BillingError(
            'idempotency_conflict',
            'The first request with this Idempotency-Key is still running',
            'Retry the same request a little later.',
          )
        }
        await new Promise((r) => setTimeout(r, WAIT_STEP_MS))
    }
  }
}

async function runAndStore(event: H3Event, store: IdempotencyStore, scope: string, key: string, run: () => Promise<Response>) {
  let response: Response
  try {
    response = await run()
  } catch (error) {
    await store.abandon(scope, key).catch(() => {})
    throw error
  }
  if (response.status >= 500) {
    await store.abandon(scope, key).catch(() => {})
    return response
  }
  const text = await response.text()
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'x-request-id') headers[name] = value
  })
  await store.complete(scope, key, { status: response.status, headers, body: text })
  return new Response(text, { status: response.status, headers: response.headers })
}
