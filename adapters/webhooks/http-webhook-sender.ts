import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { WebhookMessage, WebhookResponse, WebhookSender } from '../../core/ports/webhook-sender.js'
import { signWebhook } from './signature.js'

/** A receiver that has not answered in this long has failed the attempt (contract 12). */
export const WEBHOOK_TIMEOUT_MS = 10_000

/**
 * POSTs events with node:http over keep-alive connections, signed by the Standard Webhooks
 * scheme. (fetch cost several times as much per request: bench/webhook-delivery.ts.) The secret
 * goes into the signature only: it is never sent, nor in an error message.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 })
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 16 })

  constructor(private readonly timeoutMs = WEBHOOK_TIMEOUT_MS) {}

  send(message: WebhookMessage): Promise<WebhookResponse> {
    const started = performance.now()
    const took = () => Math.round((performance.now() - started) * 100) / 100
    return new Promise((resolve) => {
      let settled = false
      const done = (statusCode: number | null, error: string | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ statusCode, error, durationMs: took() })
      }
      let url: URL
      try {
        url = new URL(message.url)
      } catch {
        return done(null, 'invalid URL')
      }
      const secure = url.protocol === 'https:'
      const body = Buffer.from(message.body)
      const req = (secure ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': 'telco-billing-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestamp),
          'webhook-signature': signWebhook(message.secret, message.id, message.timestamp, message.body),
        },
      })
      const timer = setTimeout(() => {
        done(null, `no answer within ${this.timeoutMs / 1000} s`)
        req.destroy()
      }, this.timeoutMs)
      req.on('response', (res) => {
        // Read to the end (and drop) so that the connection is reused.
        res.on('data', () => {})
        res.on('end', () => {
          const status = res.statusCode ?? 0
          done(status, status >= 200 && status < 300 ? null : `HTTP ${status}`)
        })
        res.on('error', (e) => done(null, (e as NodeJS.ErrnoException).code ?? 'response failed'))
      })
      req.on('error', (e) => done(null, (e as NodeJS.ErrnoException).code ?? e.message ?? 'request failed'))
      req.end(body)
    })
  }
}
