export const expertLevels = ['None', 'Intern', 'Low', 'Standard', 'High', 'Full'] as const
export const permissions = ['dataProtectionDownload'] as const
export type Permission = (typeof permissions)[number]

/** An API key as listed: never its secret nor its hash. */
export interface ApiKey {
  readonly id: string
  /** Unique; names the caller in request logs. */
  readonly name: string
  /** 0..5: None, Intern, Low, Standard, High, Full. */
  readonly expertLevel: number
  /** Extra rights: `dataProtectionDownload` fetches disaster-recovery archives. */
  readonly permissions: readonly Permission[]
  readonly createdStamp: string
  /** When it was revoked; null while it works. */
  readonly revokedStamp: string | null
}

/** API keys, kept only as hashes of the secret. */
export interface ApiKeyRepository {
  findByHash(keyHash: string): Promise<(ApiKey & { keyHash: string }) | undefined>
  insert(key: Omit<ApiKey, 'id' | 'revokedStamp'> & { keyHash: string }): Promise<ApiKey>
  list(): Promise<ApiKey[]>
  revoke(name: string, stamp: string): Promise<boolean>
  count(): Promise<number>
}
