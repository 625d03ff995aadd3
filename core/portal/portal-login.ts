import type { Stamp } from '../dates/stamp.js'
import { toStamp } from '../dates/stamp.js'

/** Failures that lock a login, the window they fall in, and how long the lock lasts (contract 14.3). */
export const LOCK_FAILURES = 5
export const LOCK_WINDOW_MS = 15 * 60_000
export const LOCK_MS = 15 * 60_000

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 30 * 60_000

/** What a visitor signs in with. */
export type Credentials =
  | { readonly kind: 'password'; readonly email: string; readonly password: string }
  | { readonly kind: 'pin'; readonly accountNumber: string; readonly pin: string }

/** The key failures are counted under: the address or account number, as typed but trimmed and lower-cased. */
export function loginOf(c: Credentials): string {
  return c.kind === 'password' ? `email:${c.email.trim().toLowerCase()}` : `account:${c.accountNumber.trim().toLowerCase()}`
}

/** The earliest failure that can still count towards a lock now. */
export const failuresFrom = (now: Stamp): Stamp => toStamp(Date.parse(now) - LOCK_WINDOW_MS - LOCK_MS)

/**
 * Whether a login is locked now: some run of 5 failures within 15 minutes ended less than 15
 * minutes ago. Failures are not recorded while locked, so the lock ends 15 minutes after the
 * failure that set it, whatever is tried meanwhile.
 */
export function isLocked(failures: readonly Stamp[], now: Stamp): boolean {
  const t = failures.map((s) => Date.parse(s))
  const at = Date.parse(now)
  for (let i = LOCK_FAILURES - 1; i < t.length; i++) {
    if (t[i] - t[i - LOCK_FAILURES + 1] <= LOCK_WINDOW_MS && at - t[i] < LOCK_MS) return true
  }
  return false
}
