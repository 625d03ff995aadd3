import type { H3Event } from 'h3'

export const SESSION_COOKIE = 'portal_session'
/** Carries the sign-in form's CSRF token before there is a session (double submit). */
export const SIGN_IN_COOKIE = 'portal_signin'

/** The value of one cookie of the request, or ''. */
export function cookieOf(event: H3Event, name: string): string {
  for (const part of (event.req.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return ''
}

/** A `Set-Cookie` value: HttpOnly and SameSite=Lax always, Secure behind HTTPS; empty value clears it. */
export function setCookie(name: string, value: string, path: string, secure: boolean): string {
  const parts = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax']
  if (!value) parts.push('Max-Age=0')
  if (secure) parts.push('Secure')
  return parts.join('; ')
}

/** Whether a secret the client sent equals the one expected, in time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  if (!expected || given.length !== expected.length) return false
  let diff = 0
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i)
  return diff === 0
}
