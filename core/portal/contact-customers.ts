import type { Customer } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { PortalSessions } from '../ports/portal-sessions.js'

/** The customers a contact may sign in to: its own or those it is shared with, that have a portal profile. */
export async function customersOf(ctx: PlatformContext, sessions: PortalSessions, contactID: string): Promise<Customer[]> {
  const ids = await sessions.customersOfContact(contactID)
  const customers = await Promise.all(ids.map((id) => ctx.store.repository('customers').get(id)))
  return customers.filter((c): c is Customer => !!c && !!c.portalCustomerProfile)
}

/** A customer a sign-in reaches, and the contact it reaches it as (its index among those the email found). */
export interface Reached {
  readonly customer: Customer
  readonly at: number
}

/**
 * The customers that the contacts one email and password signed in as may sign in to (contract
 * 14.3: one person may be a direct contact of several customers, with the same password on each),
 * in ID order, each reached as the first of those contacts that reaches it. `matched` indexes
 * `contactIDs`.
 */
export async function reachedBy(ctx: PlatformContext, sessions: PortalSessions, contactIDs: readonly string[], matched: readonly number[]): Promise<Reached[]> {
  const reached = new Map<string, Reached>()
  for (const at of matched) {
    for (const customer of await customersOf(ctx, sessions, contactIDs[at])) if (!reached.has(customer.id)) reached.set(customer.id, { customer, at })
  }
  return [...reached.values()].sort((a, b) => (BigInt(a.customer.id) < BigInt(b.customer.id) ? -1 : 1))
}
