import { createHmac, timingSafeEqual } from 'node:crypto'

const PREFIX = 'whsec_'

/** The key a `whsec_<base64>` secret stands for (Standard Webhooks: the base64 part, decoded). */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`: the `Webhook-Signature` header (contract 12). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/** Whether any `v1,` signature of a `Webhook-Signature` header (space-separated) matches: what a receiver checks. */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(signWebhook(secret, headers.id, Number(headers.timestamp), body))
  return headers.signature.split(' ').some((s) => {
    const given = Buffer.from(s)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
