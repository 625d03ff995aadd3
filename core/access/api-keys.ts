import { BillingError } from '../errors.js'
import type { ApiKey, ApiKeyRepository, Permission } from '../ports/api-key-repository.js'
import { permissions as knownPermissions } from '../ports/api-key-repository.js'
import type { Clock } from '../ports/clock.js'
import type { KeySecrets } from '../ports/key-hasher.js'

export interface NewKey {
  readonly name: string
  readonly expertLevel?: number
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
  if (!/^[\w.@-]{1,100}$/.test(name)) throw new Error('a key name is 1-100 letters, digits, _ . @ or -')
  const expertLevel = input.expertLevel ?? 0
  if (!Number.isInteger(expertLevel) || expertLevel < 0 || expertLevel > 5) throw new Error('expert level is 0..5')
  for (const p of input.permissions ?? []) {
    if (!(knownPermissions as readonly string[]).includes(p)) throw new Error(`unknown permission ${p}`)
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
    if ((await keys.list()).some((k) => k.name === name)) throw new Error(`a key named ${name} exists already`)
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
