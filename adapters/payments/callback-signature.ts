import { verifyWebhook } from '../webhooks/signature.js'

/** A callback's timestamp may be this far from now, either way (contract 15.1): an old capture cannot be replayed. */
export const CALLBACK_TOLERANCE_MS = 5 * 60_000

/** The Standard Webhooks headers of a callback, as received (absent ones empty). */
export interface CallbackHeaders {
  readonly id: string
  readonly timestamp: string
  readonly signature: string
}

/**
 * Whether a provider's callback is signed with its secret over the raw body, with a timestamp
 * within five minutes of `nowMs`: the webhooks' own scheme (adapters/webhooks/signature.ts), checked
 * in constant time there.
 */
export function isSignedCallback(secret: string | undefined, headers: CallbackHeaders, rawBody: string, nowMs: number): boolean {
  if (!secret || !headers.id || !headers.signature || !/^\d{1,12}$/.test(headers.timestamp)) return false
  if (Math.abs(nowMs - Number(headers.timestamp) * 1000) > CALLBACK_TOLERANCE_MS) return false
  return verifyWebhook(secret, headers, rawBody)
}
