import type { WebhookMessage, WebhookResponse, WebhookSender } from '../../core/ports/webhook-sender.js'
import { signWebhook } from './signature.js'

/** A receiver that has not answered in this long has failed the attempt (contract 12). */
export const WEBHOOK_TIMEOUT_MS = 10_000

/**
 * POSTs events with fetch (keep-alive connections per origin), signed by the Standard Webhooks
 * scheme. The secret goes into the signature only: it is never sent, nor in an error message.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly timeoutMs = WEBHOOK_TIMEOUT_MS) {}

  async send(message: WebhookMessage): Promise<WebhookResponse> {
    const started = performance.now()
    const took = () => Math.round((performance.now() - started) * 100) / 100
    try {
      const response = await fetch(message.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'telco-billing-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestamp),
          'webhook-signature': signWebhook(message.secret, message.id, message.timestamp, message.body),
        },
        body: message.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      // The body is read (and dropped) so that the connection can be reused.
      await response.arrayBuffer().catch(() => undefined)
      const ok = response.status >= 200 && response.status < 300
      return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: took() }
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } }
      const reason = e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000} s` : (e.cause?.code ?? e.message ?? 'request failed')
      return { statusCode: null, error: reason, durationMs: took() }
    }
  }
}
