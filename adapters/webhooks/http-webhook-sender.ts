import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { WebhookMessage, WebhookResponse, WebhookSender } from '../../core/ports/webhook-sender.js'
import { signWebhook } from './signature.js'
import { guardedLookup, hostOf, literalRefusal, refusedError, systemResolve, type Resolve } from './webhook-targets.js'

/** A receiver that has not answered in this long has failed the attempt (contract 12). */
export const WEBHOOK_TIMEOUT_MS = 10_000

export interface HttpWebhookSenderOptions {
  /** A receiver that has not answered in this long has failed the attempt (default 10 s). */
  readonly timeoutMs?: number
  /** Deliver to loopback, private, link-local, ... addresses too (BILLING_WEBHOOK_ALLOW_PRIVATE; default false). */
  readonly allowPrivate?: boolean
  /** How names are looked up (tests give their own answers). */
  readonly resolve?: Resolve
}

/**
 * POSTs events with node:http over keep-alive connections, signed by the Standard Webhooks
 * scheme. (fetch cost several times as much per request: bench/webhook-delivery.ts.) The secret
 * goes into the signature only: it is never sent, nor in an error message.
 *
 * Unless private targets are allowed, each attempt checks where it connects: an IP literal
 * before the request, a name in the connection's own lookup (the address checked is the one
 * connected to). Redirects are never followed: a 3xx is a failed attempt like any non-2xx, so
 * a receiver cannot send the worker on to an inside address.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 })
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 16 })

  private readonly timeoutMs: number
  private readonly lookup: ReturnType<typeof guardedLookup> | undefined
  private readonly allowPrivate: boolean

  constructor(options: HttpWebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS
    this.allowPrivate = options.allowPrivate ?? false
    this.lookup = this.allowPrivate ? undefined : guardedLookup(options.resolve ?? systemResolve)
  }

  send(message: WebhookMessage): Promise<WebhookResponse> {
    const started = performance.now()
    const took = () => Math.round((performance.now() - started) * 100) / 100
    return new Promise((resolve) => {
      let settled = false
      let timer: NodeJS.Timeout | undefined
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
      const literal = this.allowPrivate ? null : literalRefusal(hostOf(url))
      if (literal) return done(null, refusedError(literal).message)
      let signature: string
      try {
        signature = signWebhook(message.secret, message.id, message.timestamp, message.body)
      } catch (e) {
        // A secret we did not generate (a restored archive's): a failed attempt, never a weak signature.
        return done(null, (e as Error).message)
      }
      const secure = url.protocol === 'https:'
      const body = Buffer.from(message.body)
      const req = (secure ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        agent: secure ? this.https : this.http,
        ...(this.lookup ? { lookup: this.lookup as never } : {}),
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': 'telco-billing-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestamp),
          'webhook-signature': signature,
        },
      })
      timer = setTimeout(() => {
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
      req.on('error', (e) => {
        const code = (e as NodeJS.ErrnoException).code
        // A refused address says which and why; other errors are their code alone.
        done(null, code === 'EWEBHOOKPRIVATE' ? e.message : (code ?? e.message ?? 'request failed'))
      })
      req.end(body)
    })
  }
}
