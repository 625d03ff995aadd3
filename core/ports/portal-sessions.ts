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
}

/** Portal sessions, failed sign-ins, and which customers a contact may sign in to. */
export interface PortalSessions {
  create(session: PortalSession): Promise<void>
  find(tokenHash: string): Promise<PortalSession | undefined>
  /** Records activity (the idle timer restarts) and, when given, the account chosen. */
  touch(tokenHash: string, lastSeenStamp: Stamp, customerID?: string): Promise<void>
  remove(tokenHash: string): Promise<void>
  /** Ends every session idle since before `stamp`; returns how many. */
  removeIdleBefore(stamp: Stamp): Promise<number>
  recordFailure(login: string, stamp: Stamp): Promise<void>
  /** Forgets failed sign-ins from before `stamp` (they can no longer lock anything); returns how many. */
  removeFailuresBefore(stamp: Stamp): Promise<number>
  /** The stamps of a login's failed sign-ins since `stamp`, oldest first. */
  failuresSince(login: string, stamp: Stamp): Promise<Stamp[]>
  /** The customers a contact belongs to: its own customer, or those it is shared with, in ID order. */
  customersOfContact(contactID: string): Promise<string[]>
}
