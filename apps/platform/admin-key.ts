import { createApiKey } from '../../core/access/api-keys.js'
import type { Platform } from './platform.js'

/**
 * On the first start against a database with no API key, creates `admin` (expert level 5,
 * dataProtectionDownload) and returns its secret so the caller prints it once.
 */
export async function ensureAdminKey(platform: Platform): Promise<string | null> {
  const { store, clock } = platform.context
  return store.transaction(async (tx) => {
    await tx.lock('api_keys:bootstrap')
    if ((await tx.apiKeys.count()) > 0) return null
    const { secret } = await createApiKey(tx.apiKeys, platform.secrets, clock, {
      name: 'admin',
      expertLevel: 5,
      permissions: ['dataProtectionDownload'],
    })
    return secret
  })
}
