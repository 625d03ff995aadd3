/** A response kept for replay to a retried request with the same Idempotency-Key. */
export interface StoredResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export type IdempotencyClaim =
  /** This request runs; `owner` names its claim for renew, complete and abandon. */
  | { readonly kind: 'claimed'; readonly owner: string }
  /** Another request holds the key: its fingerprint, and its response once it has one (null while it runs). */
  | { readonly kind: 'taken'; readonly fingerprint: string; readonly response: StoredResponse | null }

/**
 * Durable idempotency records, scoped by API key and key string (contract 2, Retries). A claim
 * is a lease: a request renews it while it runs, and a claim whose lease lapsed unrenewed (its
 * process was killed) is taken over by the next request with the key, which runs again.
 */
export interface IdempotencyStore {
  /**
   * Claims the key for this request fingerprint until `nowMs + leaseMs`, or reports what holds
   * it. A record older than `ttlMs` no longer binds the key.
   */
  claim(scope: string, key: string, fingerprint: string, nowMs: number, ttlMs: number, leaseMs: number): Promise<IdempotencyClaim>
  /** Extends the claim's lease to `untilMs`; false when the claim is no longer this owner's. */
  renew(scope: string, key: string, owner: string, untilMs: number): Promise<boolean>
  /** Keeps the response, with the request's final fingerprint (a streamed body's digest is known only now). */
  complete(scope: string, key: string, owner: string, fingerprint: string, response: StoredResponse): Promise<void>
  /** Forgets a claim whose request failed unexpectedly, so a retry runs again. */
  abandon(scope: string, key: string, owner: string): Promise<void>
  /**
   * Deletes the records created before `beforeMs` (the purge job: a stored response may hold a
   * secret, a PIN, that no replay needs after 24 hours), at most `batch` rows a statement so that
   * no statement holds its locks long; stops between statements once `signal` is aborted. Returns how many.
   */
  removeBefore(beforeMs: number, batch?: number, signal?: AbortSignal): Promise<number>
}
