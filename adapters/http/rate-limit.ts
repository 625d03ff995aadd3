import { HttpFailure } from './error-response.js'

/** A token bucket per API key: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  readonly burst: number
  readonly perSecond: number
}

/** The default of the server: bursts of 100 requests, 50 a second sustained ("100/2"). */
export const DEFAULT_RATE_LIMIT = '100/2'

/**
 * Reads `<requests>/<seconds>` (BILLING_RATE_LIMIT): a key may send `requests` at once and
 * `requests` per `seconds` sustained. "0" or "off" turns the limit off (null).
 */
export function parseRateLimit(text: string): RateLimit | null {
  const t = text.trim()
  if (t === '0' || t === 'off') return null
  const m = /^(\d{1,9})\/(\d{1,9}(?:\.\d{1,6})?)$/.exec(t)
  const requests = Number(m?.[1])
  const seconds = Number(m?.[2])
  if (!m || requests < 1 || !(seconds > 0)) {
    throw new Error(`BILLING_RATE_LIMIT must be "<requests>/<seconds>" such as "100/2", or "0" for no limit (got "${text}")`)
  }
  return { burst: requests, perSecond: requests / seconds }
}

interface Bucket {
  tokens: number
  at: number
}

/** Buckets by key name; a full bucket is the same as none, so idle keys are dropped when many pile up. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    readonly limit: RateLimit,
    /** Milliseconds of a monotonic clock; tests pass their own. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token for `key`, or fails with 429001 and the seconds to wait in Retry-After. */
  take(key: string): void {
    const now = this.now()
    const bucket = this.refilled(key, now)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return
    }
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond))
    throw new HttpFailure(
      'rate_limited',
      `Too many requests for this API key (${this.limit.burst} at once, ${round(this.limit.perSecond)} a second)`,
      `Wait ${wait} s (Retry-After) and slow down.`,
      { 'retry-after': String(wait) },
    )
  }

  private refilled(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key)
    if (!bucket) {
      if (this.buckets.size >= 10_000) this.dropFull(now)
      bucket = { tokens: this.limit.burst, at: now }
      this.buckets.set(key, bucket)
      return bucket
    }
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond)
    bucket.at = now
    return bucket
  }

  private dropFull(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.limit.perSecond >= this.limit.burst) this.buckets.delete(key)
    }
  }
}

const round = (n: number) => Math.round(n * 100) / 100
