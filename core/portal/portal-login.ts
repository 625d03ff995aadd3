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

/** What a login is: a contact's email or a customer's account number. */
export type LoginKind = 'email' | 'account'

/**
 * A login as sign-in compares it, typed or stored: NFC and trimmed, an email also lower-cased
 * whole (the common practice; NFC again, as lower-casing can decompose). Applied to both sides,
 * so a login stored with spaces around it, in another case or in NFD still signs in. Kept
 * beside each stored login (`emailKey`, `accountNumberKey`), where sign-in looks it up.
 */
export function loginKey(kind: LoginKind, login: string): string {
  const trimmed = login.normalize('NFC').trim()
  return kind === 'email' ? trimmed.toLowerCase().normalize('NFC') : trimmed
}

/** The key failures are counted under: the login's own key (`loginKey`), so a lock holds however it is typed. */
export function loginOf(c: Credentials): string {
  return c.kind === 'password' ? `email:${loginKey('email', c.email)}` : `account:${loginKey('account', c.accountNumber)}`
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
