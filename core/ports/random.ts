/** Cryptographic randomness for PINs and link identifiers. */
export interface Random {
  /** `count` decimal digits, uniformly random. */
  digits(count: number): string
  uuid(): string
  /** `bytes` random bytes from a cryptographic source, base64-encoded (a webhook's signing secret). */
  secret(bytes: number): string
}
