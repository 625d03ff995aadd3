import type { H3Event } from 'h3'
import { FastResponse } from 'srvx'
import type { PlatformContext } from '../../core/platform.js'
import type { PortalSessions } from '../../core/ports/portal-sessions.js'
import { readBodyBytes } from '../http/body.js'
import { mountPrefix } from '../http/mount-prefix.js'
import { requestIdOf } from '../http/respond.js'
import { renderView, type View } from './views.js'

/** Where the portal is served in the app. */
export const PORTAL = '/portal'

/** The portal's path as the browser reaches it: under the mount point when the app is mounted in another. */
export const portalBase = (event: H3Event): string => `${mountPrefix(event, PORTAL)}${PORTAL}`

/** No outside origin, no script at all; styles from the portal's own stylesheet. */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
/** An invoice document carries its own inline styles (adapters/documents): still nothing from outside. */
export const DOCUMENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

/** What the portal's routes share. */
export interface PortalOptions {
  readonly platform: PlatformContext
  readonly sessions: PortalSessions
  /** BILLING_PUBLIC_URL: an https URL marks cookies Secure. */
  readonly publicUrl?: string | null
  /** BILLING_TRUST_PROXY=true: `X-Forwarded-Proto: https` from the proxy in front marks cookies Secure. */
  readonly trustProxy?: boolean
}

/** One route of the portal: a page or a form's target. */
export interface PageRoute {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly handler: (event: H3Event) => Promise<Response>
}

/** Whether the browser reached us over HTTPS, as far as we are told (contract 14.3). */
export function isHttps(event: H3Event, o: PortalOptions): boolean {
  if (o.publicUrl?.startsWith('https:')) return true
  if (o.trustProxy) return (event.req.headers.get('x-forwarded-proto') ?? '').split(',')[0].trim().toLowerCase() === 'https'
  return event.url.protocol === 'https:'
}

/** Headers every portal answer carries. */
export function pageHeaders(event: H3Event, csp = PAGE_CSP): Record<string, string> {
  return {
    'content-security-policy': csp,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-request-id': requestIdOf(event),
  }
}

/** A rendered page; `cookies` are Set-Cookie values. */
export function page(event: H3Event, view: View, data: Record<string, unknown>, status = 200, cookies: readonly string[] = []): Response {
  const headers = new Headers({ ...pageHeaders(event), 'content-type': 'text/html; charset=utf-8' })
  for (const c of cookies) headers.append('set-cookie', c)
  return new FastResponse(renderView(view, { base: portalBase(event), ...data }), { status, headers })
}

/** A 303 to a portal path (after a form, or to the sign-in page). */
export function redirect(event: H3Event, path: string, cookies: readonly string[] = []): Response {
  const headers = new Headers({ ...pageHeaders(event), location: `${portalBase(event)}${path}` })
  for (const c of cookies) headers.append('set-cookie', c)
  return new FastResponse(null, { status: 303, headers })
}

/** A urlencoded form's fields (at most 16 KiB; another content type reads as empty). */
export async function readForm(event: H3Event): Promise<URLSearchParams> {
  const type = event.req.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return new URLSearchParams()
  return new URLSearchParams(new TextDecoder().decode(await readBodyBytes(event, 16 * 1024)))
}
