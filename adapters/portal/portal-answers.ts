import type { H3Event, Middleware } from 'h3'
import { FastResponse } from 'srvx'
import { page, pageHeaders, PORTAL, type PortalOptions } from './portal-http.js'
import { notFoundPage, sellerOf } from './portal-session.js'

/** Headers of the API's answer worth keeping on the page that replaces it. */
const KEPT = ['allow', 'retry-after']

/**
 * Every answer under `/portal` carries the portal's headers (contract 14.3: a content security
 * policy that allows no outside origin), whoever gives it. The pages set them; what the API's
 * edge answers for a portal path (an oversized form's 413, a method no page takes, a deadline, an
 * unexpected failure) is its JSON error, which becomes the portal's page with the same status.
 * It runs first, so it sees every answer, CORS and compression included.
 */
export function portalAnswers(o: PortalOptions): Middleware {
  return async (event, next) => {
    // Read before `next`: a mounted app sees its own path only while its middleware runs.
    const path = event.url.pathname
    if (path !== PORTAL && !path.startsWith(`${PORTAL}/`)) return next()
    const answer = (await next()) as Response
    if (answer.headers.has('content-security-policy')) return answer
    if (answer.status < 400) {
      const headers = new Headers(answer.headers)
      for (const [k, v] of Object.entries(pageHeaders(event))) headers.set(k, v)
      return new FastResponse(answer.body, { status: answer.status, headers })
    }
    const shown = errorPage(event, o, answer.status)
    for (const k of KEPT) if (answer.headers.has(k)) shown.headers.set(k, answer.headers.get(k)!)
    return shown
  }
}

/** The portal's page for an error status: what a visitor can do about it, nothing of the internals. */
function errorPage(event: H3Event, o: PortalOptions, status: number): Response {
  if (status === 404) return notFoundPage(event, o)
  const [title, message] =
    status === 413
      ? ['Too large', 'What was sent is too large. Please go back and try again.']
      : status === 408 || status === 503
        ? ['Try again', 'That took too long. Please try again in a moment.']
        : status < 500
          ? ['Not accepted', 'That request could not be accepted. Please go back and try again.']
          : ['Something went wrong', 'Something went wrong on our side. Please try again later.']
  return page(event, 'message', { title, seller: sellerOf(o), message, linkPath: '', linkLabel: 'Back to your account' }, status)
}
