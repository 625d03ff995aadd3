import type { H3Event } from 'h3'
import { BASE_PATH } from './route.js'

/**
 * The path the app is mounted under (`/billing` after `app.mount('/billing', billing.http)`),
 * read from the request: h3 hands a mounted app's handlers the whole URL. `under` is where the
 * route lives in the app (the API's base path, or the portal's); the first whole segment match
 * counts, so a mount point such as `/portal-billing` is not taken for the portal. Empty when not mounted.
 */
export function mountPrefix(event: H3Event, under: string = BASE_PATH): string {
  const path = event.url.pathname
  for (let at = path.indexOf(under); at >= 0; at = path.indexOf(under, at + 1)) {
    const after = path[at + under.length]
    if (after === undefined || after === '/') return path.slice(0, at)
  }
  return ''
}

/** A path of the API as this request's client reaches it: `Location` headers, the docs page. */
export const apiPath = (event: H3Event, rest: string): string => `${mountPrefix(event)}${BASE_PATH}${rest}`
