import type { Customer } from '../fields/entity.js'
import type { Item, Values } from '../fields/item.js'
import type { PortalSession } from '../ports/portal-sessions.js'

/*
 * A customer's portal is open while it has a `portalCustomerProfile`. Closing it ends every
 * session signed in to it (contract 14.3), and the profile alone cannot say so: a portal closed
 * and opened again before a session's next request looks as if it had never closed. So each
 * close moves the customer's `portalOpening`, and a session remembers the opening of each
 * customer it signed in to: once the customer's has moved on, the session is over, whatever
 * happens to the portal after.
 */

/** Which opening of its portal the customer is at; none stored (never closed): the first, 0. */
export const portalOpeningOf = (customer: Pick<Customer, 'portalOpening'>): number => customer.portalOpening ?? 0

/** The openings a session signing in to these customers records. */
export const openingsOf = (customers: readonly Customer[]): Readonly<Record<string, number>> =>
  Object.fromEntries(customers.map((c) => [c.id, portalOpeningOf(c)]))

/**
 * Whether the customer's portal is still at the opening the session signed in to. A session
 * recorded nothing when it signed in before openings were counted (migration 0078), when every
 * customer was at the first; a customer it did not sign in to (linked to its contact since) is
 * not one it holds for.
 */
export function sameOpening(session: Pick<PortalSession, 'portalOpenings'>, customer: Customer): boolean {
  const signedIn = session.portalOpenings === null ? 0 : session.portalOpenings[customer.id]
  return signedIn === portalOpeningOf(customer)
}

/**
 * What a customer's write does besides its values: clearing an open portal's profile moves the
 * customer to the next opening. The write holds the customer's row, so two closes never take the
 * same number.
 */
export function portalClosing(values: Values, current: Item | null): Values {
  if (!current?.portalCustomerProfile || !('portalCustomerProfile' in values) || values.portalCustomerProfile) return {}
  return { portalOpening: (typeof current.portalOpening === 'number' ? current.portalOpening : 0) + 1 }
}
