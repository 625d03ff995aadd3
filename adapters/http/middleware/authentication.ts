import type { H3Event, Middleware } from 'h3'
import { authenticate } from '../../../core/access/api-keys.js'
import { BillingError } from '../../../core/errors.js'
import type { PlatformContext } from '../../../core/platform.js'
import type { KeySecrets } from '../../../core/ports/key-hasher.js'
import { asActor } from '../../security/actor-scope.js'
import { SecretHashes } from '../../security/secret-hashes.js'
import { isSafeMethod } from '../safe-methods.js'

/**
 * Every request needs a valid key (contract 3) except on the public paths. It runs before any
 * route is answered, so an unknown route without a key is 401, not 404 (contract 2's order).
 * By path, not by the matched route: a public path asked with another method answers 405.
 */
export function authentication(platform: PlatformContext, secrets: KeySecrets, isPublic: (path: string) => boolean): Middleware {
  const hashes = new SecretHashes(secrets)
  return async (event, next) => {
    if (isPublic(event.url.pathname.replace(/\/$/, ''))) return next()
    const key = await keyOf(event, platform, hashes)
    event.context.key = key
    // A safe method writes no history, so it skips the actor scope, whose AsyncLocalStorage
    // hooks every promise of the request (about 4 % of a GET's CPU).
    if (isSafeMethod(event.req.method)) return next()
    // History entries of this request name its key and request ID (contract 12).
    return asActor({ apiKeyName: key.name, requestID: (event.context.requestId as string | undefined) ?? null }, next)
  }
}

async function keyOf(event: H3Event, platform: PlatformContext, hashes: SecretHashes) {
  const header = event.req.headers.get('authorization') ?? ''
  // The scheme's name is case-insensitive (RFC 9110 11.1; contract 3): `bearer` and `BEARER` are Bearer.
  const m = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(header)
  if (!m) {
    throw new BillingError('unauthenticated', 'Missing or malformed Authorization header', 'Send Authorization: Bearer <key>.')
  }
  const secret = m[1]
  try {
    const key = await authenticate(platform.store.apiKeys, hashes, secret)
    hashes.remember(secret)
    return key
  } catch (e) {
    hashes.forget(secret)
    throw e
  }
}
