import type { ApiKey } from '../../../core/ports/api-key-repository.js'

type StoredKey = ApiKey & { keyHash: string }

/**
 * Active API keys looked up in the last `ttlMs`, by hash. Every request looks its key up, and
 * that lookup was a tenth of the CPU time of a GET on SQLite and a whole round trip on Postgres
 * (bench/get-customer.ts). A revocation made through this process (the library, the server)
 * clears the cache at once; one made by another process (`npm run apikey -- revoke` against
 * a running server) takes effect within `ttlMs`. Only active keys are kept, so an unknown or
 * revoked key is always checked against the database. One instance per root database.
 */
export class RecentKeys {
  private readonly keys = new Map<string, { key: StoredKey; until: number }>()

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(hash: string): StoredKey | undefined {
    const hit = this.keys.get(hash)
    if (!hit) return undefined
    if (hit.until > this.now()) return hit.key
    this.keys.delete(hash)
    return undefined
  }

  remember(key: StoredKey): void {
    if (this.ttlMs <= 0 || key.revokedStamp) return
    // Keys are few; the bound only stops a flood of distinct valid keys from growing the map.
    if (this.keys.size >= 10_000) this.keys.clear()
    this.keys.set(key.keyHash, { key, until: this.now() + this.ttlMs })
  }

  clear(): void {
    this.keys.clear()
  }
}
