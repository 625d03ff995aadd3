import type { Harness } from './harness.js'
import type { FuzzRequest } from './fuzz-requests.js'
import { findLeak, type Secrets } from './leak-scan.js'

export interface FuzzResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** Sends a generated request in process, with the key it asks for. */
export async function send(h: Harness, req: FuzzRequest): Promise<FuzzResponse> {
  const headers: Record<string, string> = { ...req.headers }
  const auth: Record<typeof req.key, string | null> = {
    admin: `Bearer ${h.keys.admin}`,
    low: `Bearer ${h.keys.low}`,
    revoked: `Bearer ${h.keys.revoked}`,
    unknown: 'Bearer tbk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    none: null,
    malformed: req.malformedAuth,
  }
  if (auth[req.key] !== null) headers.authorization = auth[req.key]!
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body
  const res = await h.platform.app.request(req.url, { method: req.method, headers, body: body as BodyInit | undefined })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** Contract 3's public paths, `/readyz` beside `/healthz` for load balancers (contract 13), and providers' signed callbacks (15.1). */
const PUBLIC = /^(\/healthz|\/readyz|\/backend\/api\/v1\/(openapi\.json|docs(\/[^/]+)?|paymentProviders\/[^/]+\/callbacks))\/?$/

/** What is wrong with an answer to a hostile request, or null: the contract's promises. */
export function problemWith(req: FuzzRequest, res: FuzzResponse, secrets: Secrets): string | null {
  if (res.status >= 500) return `status ${res.status}`
  if (!res.headers.get('x-request-id')) return 'no X-Request-Id'
  const path = new URL(req.url, 'http://x').pathname
  if (!['admin', 'low'].includes(req.key) && !PUBLIC.test(path) && res.status !== 401) return `key ${req.key} answered ${res.status}, not 401`
  const type = res.headers.get('content-type') ?? ''
  if (res.status >= 400 && req.method !== 'HEAD') {
    let body: unknown
    try {
      body = JSON.parse(res.text)
    } catch {
      return `error body is not JSON: ${res.text.slice(0, 80)}`
    }
    const b = body as Record<string, unknown>
    if (JSON.stringify(Object.keys(b)) !== '["error","error_code","hint"]') return `error keys ${Object.keys(b)}`
    if (typeof b.error !== 'string' || typeof b.hint !== 'string' || !Number.isInteger(b.error_code)) return 'error field types'
    if (Math.floor((b.error_code as number) / 1000) !== res.status) return `error_code ${b.error_code} with status ${res.status}`
    if (res.status === 400 && ![1, 2, 5].includes(Math.floor((b.error_code as number) / 100) % 10)) return `400 with ${b.error_code}`
  }
  if (res.status < 300 && type.startsWith('application/json')) {
    try {
      JSON.parse(res.text)
    } catch {
      return 'a JSON answer that is not JSON'
    }
  }
  if (type.startsWith('application/json') || res.status >= 400) {
    const sent = `${req.url}\n${typeof req.body === 'string' ? req.body : ''}`
    const leak = findLeak(res.text, secrets, sent, res.status)
    if (leak) return `leaks ${leak}`
  }
  return null
}

/** A request and its answer, short enough to read in a failure message. */
export function describe(req: FuzzRequest, res: FuzzResponse): string {
  const body = typeof req.body === 'string' ? req.body.slice(0, 300) : req.body ? `<${req.body.byteLength} bytes>` : '-'
  return `${req.method} ${req.url.slice(0, 300)} key=${req.key} headers=${JSON.stringify(req.headers).slice(0, 300)}\nbody: ${body}\n→ ${res.status} ${res.text.slice(0, 300)}`
}
