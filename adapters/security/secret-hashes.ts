import type { KeySecrets } from '../../core/ports/key-hasher.js'

/**
 * Key secrets with the hashes of those that authenticated remembered, so a request whose key
 * worked before skips its SHA-256 (about 2 % of the CPU time of a GET, bench/get-customer.ts).
 * A secret's hash never changes, so nothing here needs invalidating when a key is revoked:
 * whether the key still works is asked of the key store by hash on every request (its own
 * short cache is cleared on revocation). Only secrets that authenticated are kept, so a client
 * guessing keys neither fills the map nor skips the hash, and a secret refused later is dropped.
 * The price: working secrets stay in the server's memory while it runs (a heap dump shows them),
 * where before each lived only as long as its request.
 */
export class SecretHashes implements KeySecrets {
  private readonly known = new Map<string, string>()

  constructor(
    private readonly secrets: KeySecrets,
    /** Keys are few; the bound only stops a flood of distinct valid keys from growing the map. */
    private readonly limit = 1000,
  ) {}

  generate(): string {
    return this.secrets.generate()
  }

  hash(secret: string): string {
    return this.known.get(secret) ?? this.secrets.hash(secret)
  }

  equal(a: string, b: string): boolean {
    return this.secrets.equal(a, b)
  }

  /** The secret authenticated: its hash is kept. */
  remember(secret: string): void {
    if (this.known.has(secret)) return
    if (this.known.size >= this.limit) this.known.clear()
    this.known.set(secret, this.secrets.hash(secret))
  }

  /** The secret was refused (revoked, unknown): its hash is computed again next time. */
  forget(secret: string): void {
    this.known.delete(secret)
  }
}
