/** Makes API key secrets and their stored hashes; the secret itself is never stored. */
export interface KeySecrets {
  /** A new random secret of at least 128 bits. */
  generate(): string
  hash(secret: string): string
  /** Constant-time comparison of two hashes. */
  equal(a: string, b: string): boolean
}
