import type { Stamp } from '../dates/stamp.js'

/** A signed-in portal visitor (contract 14.3); the token itself is never stored, only its digest. */
export interface PortalSession {
  readonly tokenHash: string
  /** The account being looked at; null until a shared contact of several customers chooses one. */
  readonly customerID: string | null
  /** The contact who signed in; null for a sign-in by account number and PIN. */
  readonly contactID: string | null
  /** Who history entries name: `portal:<contact ID>` or `portal:pin`. */
  readonly actor: string
  /** What every form that changes something must carry back. */
  readonly csrfToken: string
  readonly createdStamp: Stamp
  readonly lastSeenStamp: Stamp
  /**
   * The digest of the contact's stored password hash when it signed in; null for a sign-in by
   * PIN. A contact whose password has changed since no longer matches it: the session is over.
   */
  readonly passwordDigest: string | null
  /**
   * The digest of the contact's email, the login it signed in with; null for a sign-in by PIN. A
   * contact whose email has been cleared or changed since no longer matches it: the session is over.
   */
  readonly emailDigest: string | null
  /**
   * The digest of the customer's account number and stored PIN hash, the login and secret it
   * signed in with; null for a contact's sign-in. A customer whose PIN has been regenerated or
   * cleared, or whose account number has changed, since no longer matches it: the session is over.
   */
  readonly pinDigest: string | null
  /**
   * The opening of each customer's portal it signed in to, by customer ID (core/portal/portal-opening.ts):
   * once a customer's portal has been closed since, the session no longer holds for it. Null for a
   * session from before openings were counted, when every portal was at its first.
   */
  readonly portalOpenings: Readonly<Record<string, number>> | null
  /**
   * When one email and password signed in as several contacts (one person, a direct contact of
   * each of several customers), the contact each customer it may choose is reached as, by customer
   * ID: choosing a customer makes its contact the session's (`contactID`, `actor`, `passwordDigest`,
   * `emailDigest`). Null when it signed in as one contact (every customer is that one's) or by PIN.
   */
  readonly contacts: Readonly<Record<string, ContactSignIn>> | null
}

/** What a session records of a contact it signed in as (the fields of `PortalSession` of that name). */
export interface ContactSignIn {
  readonly contactID: string
  readonly actor: string
  readonly passwordDigest: string
  readonly emailDigest: string
}

/** Portal sessions, failed sign-ins, and which customers a contact may sign in to. */
export interface PortalSessions {
  create(session: PortalSession): Promise<void>
  find(tokenHash: string): Promise<PortalSession | undefined>
  /**
   * Records activity (the idle timer restarts) and, when given, the account chosen and, for a
   * session of several contacts, the contact that account is reached as (`contacts`).
   */
  touch(tokenHash: string, lastSeenStamp: Stamp, customerID?: string, contact?: ContactSignIn): Promise<void>
  remove(tokenHash: string): Promise<void>
  /** Ends every session idle since before `stamp`; returns how many. */
  removeIdleBefore(stamp: Stamp): Promise<number>
  /**
   * Starts a sign-in attempt on a login: unless `locked` says the login's failures since `since`
   * (attempts still being checked among them, oldest first) lock it, records the attempt as a
   * failure and returns a key to forget it by once it signs in; when locked, records nothing and
   * returns null. Attempts on one login start one at a time, across processes, so however many
   * arrive at once each sees those before it, and no more guesses are checked than the lock allows.
   */
  startAttempt(login: string, stamp: Stamp, since: Stamp, locked: (failures: readonly Stamp[]) => boolean): Promise<string | null>
  /** Forgets an attempt that signed in: it is not a failure. */
  forgetAttempt(attempt: string): Promise<void>
  /** Forgets failed sign-ins from before `stamp` (they can no longer lock anything); returns how many. */
  removeFailuresBefore(stamp: Stamp): Promise<number>
  /** The customers a contact belongs to: its own customer, or those it is shared with, in ID order. */
  customersOfContact(contactID: string): Promise<string[]>
}
