import { createApiKey, type NewKey } from '../../core/access/api-keys.js'
import type { ApiKey } from '../../core/ports/api-key-repository.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { PlatformContext } from '../../core/platform.js'

/** The API keys of the HTTP API (`platform.http`); the library itself needs none. */
export interface ApiKeysApi {
  /**
   * Creates a key (`name`, `expertLevel` 0..5, `permissions` such as "dataProtectionDownload").
   * The secret is answered once; only its hash is kept.
   */
  create(input: NewKey): Promise<{ key: ApiKey; secret: string }>
  /** Every key, revoked ones included, without secrets. */
  list(): Promise<ApiKey[]>
  /** Revokes the key at once; false when no active key has that name. */
  revoke(name: string): Promise<boolean>
}

export function apiKeysApi(ctx: PlatformContext, secrets: KeySecrets): ApiKeysApi {
  return {
    create: (input) => createApiKey(ctx.store.apiKeys, secrets, ctx.clock, input),
    list: () => ctx.store.apiKeys.list(),
    revoke: (name) => ctx.store.apiKeys.revoke(name, ctx.clock.now()),
  }
}
