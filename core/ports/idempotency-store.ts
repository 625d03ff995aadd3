/** A response kept for replay to a retried request with the same Idempotency-Key. */
export interface StoredResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export type IdempotencyClaim =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  | { readonly kind: 'pending' }
  | { readonly kind: 'mismatch' }

/** Durable idempotency records, scoped by API key and key string (contract 2, Retries). */
export interface IdempotencyStore {
  /** Claims the key for this request fingerprint, or reports what the first request left. */
  claim(scope: string, key: string, fingerprint: string, nowMs: number, ttlMs: number): Promise<IdempotencyClaim>
  complete(scope: string, key: string, response: StoredResponse): Promise<void>
  /** Forgets a claim whose request failed unexpectedly, so a retry runs again. */
  abandon(scope: string, key: string): Promise<void>
}
