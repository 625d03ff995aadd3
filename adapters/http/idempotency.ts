import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import { BillingError } from '../../core/errors.js'
import type { IdempotencyStore, StoredResponse } from '../../core/ports/idempotency-store.js'
import { bodyChunks, failBodyReads, observeBody } from './body-chunks.js'
import { readBodyBytes } from './body.js'
import { requestIdOf } from './respond.js'
import { routeOf } from './route-meta.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How long a claim lasts unrenewed by default (BILLING_LEASE_MS). */
export const IDEMPOTENCY_LEASE_MS = 60_000
const KEY = /^[\x21-\x7e]{1,255}$/
const WAIT_STEP_MS = 20
const WAIT_MAX_MS = 30_000

/**
 * Runs a POST at most once per Idempotency-Key (contract 2): the first request's response is
 * stored and replayed to repeats with the same method, path and body for 24 hours; a repeat
 * racing the first waits for it; the same key on a different request is 409004. Unexpected
 * failures (5xx) are not stored, so a retry runs again; nor is a request that was killed: its
 * claim is a lease it renews while it runs, and a retry after the lease lapsed runs again.
 *
 * A body is fingerprinted whole (method, path, media type and body), read first; a route that
 * streams its body (a usage file, of any size) is fingerprinted by the body's digest, taken as
 * the route reads it, and stored only if the route read it to its end. A trailing slash, and the
 * content type's parameters and case, change no fingerprint: the contract makes them optional.
 *
 * A key changes no error (contract 2's order): a malformed key or a body that cannot be read is
 * the route's to answer where it reads its body, after its check of the item in its path.
 */
export async function withIdempotency(
  event: H3Event,
  store: IdempotencyStore,
  scope: string,
  key: string,
  run: () => Promise<Response>,
  leaseMs = IDEMPOTENCY_LEASE_MS,
): Promise<Response> {
  const streamed = routeOf(event)?.streamsBody === true
  let fingerprint: string
  try {
    if (!KEY.test(key)) {
      throw new BillingError('invalid_body', 'Idempotency-Key must be 1 to 255 visible ASCII characters', 'Send a UUID as Idempotency-Key.')
    }
    const head = requestHead(event)
    if (streamed) fingerprint = `stream ${sha256(head)}`
    else {
      const body = await readBodyBytes(event)
      event.context.rawBody = body
      fingerprint = createHash('sha256').update(head).update(body).digest('hex')
    }
  } catch (error) {
    // Nothing is claimed: the route runs, and every read of its body throws this (each POST
    // route reads its body before it changes anything, so nothing runs unguarded).
    failBodyReads(event, error)
    return run()
  }
  const started = Date.now()
  for (;;) {
    const claim = await store.claim(scope, key, fingerprint, Date.now(), IDEMPOTENCY_TTL_MS, leaseMs)
    if (claim.kind === 'claimed') return runAndStore(event, store, { scope, key, owner: claim.owner, fingerprint, streamed, leaseMs }, run)
    const sameRequest = streamed ? claim.fingerprint.startsWith(fingerprint) : claim.fingerprint === fingerprint
    if (sameRequest && claim.response) {
      // A streamed repeat is the same request only if its body is: read it through to know.
      if (streamed && claim.fingerprint !== `${fingerprint} ${await digestOfBody(event)}`) throw mismatch()
      return replay(event, claim.response)
    }
    if (!sameRequest) throw mismatch()
    if (Date.now() - started > WAIT_MAX_MS) {
      throw new BillingError('idempotency_conflict', 'The first request with this Idempotency-Key is still running', 'Retry the same request a little later.')
    }
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS))
  }
}

interface Claim {
  readonly scope: string
  readonly key: string
  readonly owner: string
  readonly fingerprint: string
  readonly streamed: boolean
  readonly leaseMs: number
}

async function runAndStore(event: H3Event, store: IdempotencyStore, claim: Claim, run: () => Promise<Response>): Promise<Response> {
  const { scope, key, owner } = claim
  const abandon = () => store.abandon(scope, key, owner).catch(() => {})
  let digest: string | null = null
  if (claim.streamed) {
    const hash = createHash('sha256')
    observeBody(event, { chunk: (bytes) => hash.update(bytes), end: () => (digest = hash.digest('hex')) })
  }
  // Renewed while the request runs: a lease that lapses means the process died.
  const renewal = setInterval(() => void store.renew(scope, key, owner, Date.now() + claim.leaseMs).catch(() => {}), Math.max(10, Math.floor(claim.leaseMs / 3)))
  let response: Response
  try {
    response = await run()
  } catch (error) {
    await abandon()
    throw error
  } finally {
    clearInterval(renewal)
  }
  // Nothing to replay from a failure, or from an answer to part of a streamed body.
  if (response.status >= 500 || (claim.streamed && digest === null)) {
    await abandon()
    return response
  }
  const text = await response.text()
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'x-request-id') headers[name] = value
  })
  const fingerprint = claim.streamed ? `${claim.fingerprint} ${digest}` : claim.fingerprint
  await store.complete(scope, key, owner, fingerprint, { status: response.status, headers, body: text })
  return new Response(text, { status: response.status, headers: response.headers })
}

function replay(event: H3Event, stored: StoredResponse): Response {
  return new Response(stored.body, {
    status: stored.status,
    headers: { ...stored.headers, 'x-request-id': requestIdOf(event), 'idempotent-replayed': 'true' },
  })
}

/** The digest of the whole body, read to its end and not kept. */
async function digestOfBody(event: H3Event): Promise<string> {
  const hash = createHash('sha256')
  const chunks = bodyChunks(event)
  if (chunks) for await (const chunk of chunks) hash.update(chunk)
  return hash.digest('hex')
}

/** The request without its body, as contract 2 tells requests apart: no trailing slash, the media type alone. */
function requestHead(event: H3Event): string {
  const { pathname, search } = event.url
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
  const media = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  return `${event.req.method} ${path}${search}\n${media}\n`
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const mismatch = () =>
  new BillingError(
    'idempotency_conflict',
    'This Idempotency-Key was used with a different request',
    'Use a new key for a new request; repeat a request only with its exact method, path and body.',
  )
