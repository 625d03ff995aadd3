/**
 * Methods that change nothing (RFC 9110 9.2.1): they write no history (authentication skips the
 * actor scope for them) and, at `BILLING_LOG_REQUESTS=writes`, get no request line when answered.
 */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method)
