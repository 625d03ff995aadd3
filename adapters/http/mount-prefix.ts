import type { H3Event } from 'h3'
import { BASE_PATH } from './route.js'

/**
 * The path the app is mounted under (`/billing` after `app.mount('/billing', billing.http)`),
 * read from the request: h3 hands a mounted app the whole URL. Empty when not mounted.
 */
export function mountPrefix(event: H3Event): string {
  const path = event.url.pathname
  const at = path.indexOf(BASE_PATH)
  return at > 0 ? path.slice(0, at) : ''
}

/** A path of the API as this request's client reaches it: `Location` headers, the docs page. */
export const apiPath = (event: H3Event, rest: string): string => `${mountPrefix(event)}${BASE_PATH}${rest}`
