import { createHmac, timingSafeEqual } from 'node:crypto'
import { SIGNING_SECRET_RULE, signingKeyBase64 } from '../../core/presets/signing-secret.js'

/**
 * The key a secret stands for (Standard Webhooks: the base64 part, decoded), or null when the
 * secret breaks the rule of core/presets/signing-secret.ts: decoded leniently, a secret that is
 * not base64 would key the HMAC with few bytes or none, and anyone could sign.
 */
function keyOf(secret: string): Buffer | null {
  const base64 = signingKeyBase64(secret)
  return base64 === null ? null : Buffer.from(base64, 'base64')
}

/**
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`: the `Webhook-Signature` header (contract 12).
 * Throws for a secret that breaks the rule (without repeating it): nothing is signed with a weak key.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = keyOf(secret)
  if (!key) throw new Error(`the signing secret ${SIGNING_SECRET_RULE}`)
  return sign(key, id, timestamp, body)
}

/**
 * Whether any `v1,` signature of a `Webhook-Signature` header (space-separated) matches: what a
 * receiver checks. A secret that breaks the rule verifies nothing.
 */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const key = keyOf(secret)
  if (!key) return false
  const expected = Buffer.from(sign(key, headers.id, Number(headers.timestamp), body))
  return headers.signature.split(' ').some((s) => {
    const given = Buffer.from(s)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}

function sign(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}
