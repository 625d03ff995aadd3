import { BillingError } from '../errors.js'
import type { ApiKey, ApiKeyRepository, Permission } from '../ports/api-key-repository.js'
import { permissions as knownPermissions } from '../ports/api-key-repository.js'
import type { Clock } from '../ports/clock.js'
import type { KeySecrets } from '../ports/key-hasher.js'

/** A key to create. */
export interface NewKey {
  /** 1-100 letters, digits, `_ . @ -`; unique. */
  readonly name: string
  /** 0..5 (default 0); level 5 is needed for applyIncrease. */
  readonly expertLevel?: number
  /** Such as `dataProtectionDownload`. */
  readonly permissions?: readonly string[]
}

/** Creates a key; the secret is returned once and only its hash is kept. */
export async function createApiKey(
  keys: ApiKeyRepository,
  secrets: KeySecrets,
  clock: Clock,
  input: NewKey,
): Promise<{ key: ApiKey; secret: string }> {
  const name = input.name.trim()
  if (!/^[\w.@-]{1,100}$/.test(name)) throw new BillingError('invalid_parameter', 'a key name is 1-100 letters, digits, _ . @ or -', 'Give a name such as "billing-ui".')
  const expertLevel = input.expertLevel ?? 0
  if (!Number.isInteger(expertLevel) || expertLevel < 0 || expertLevel > 5) throw new BillingError('invalid_parameter', 'expert level is 0..5', 'Give a whole number from 0 (None) to 5 (Full).')
  for (const p of input.permissions ?? []) {
    if (!(knownPermissions as readonly string[]).includes(p)) throw new BillingError('invalid_parameter', `unknown permission ${p}`, `Known permissions: ${knownPermissions.join(', ')}.`)
  }
  const secret = secrets.generate()
  try {
    const key = await keys.insert({
      name,
      expertLevel,
      permissions: [...new Set(input.permissions ?? [])] as Permission[],
      keyHash: secrets.hash(secret),
      createdStamp: clock.now(),
    })
    return { key, secret }
  } catch (e) {
    if ((await keys.list()).some((k) => k.name === name)) throw new BillingError('unique_taken', `a key named ${name} exists already`, 'Choose another name, or revoke the key first.')
    throw e
  }
}

/** The caller a bearer secret belongs to, or `unauthenticated`; revoked keys fail at once. */
export async function authenticate(keys: ApiKeyRepository, secrets: KeySecrets, secret: string): Promise<ApiKey> {
  const hash = secrets.hash(secret)
  const found = await keys.findByHash(hash)
  if (!found || !secrets.equal(found.keyHash, hash) || found.revokedStamp) {
    throw new BillingError('unauthenticated', 'Unknown or revoked API key', 'Send Authorization: Bearer <key> with a valid key.')
  }
  const { keyHash: _, ...key } = found
  return key
}
