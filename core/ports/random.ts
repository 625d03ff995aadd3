/** Cryptographic randomness for PINs and link identifiers. */
export interface Random {
  /** `count` decimal digits, uniformly random. */
  digits(count: number): string
  uuid(): string
}
