import type { Customer } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { ContactSignIn, PortalSession, PortalSessions } from '../ports/portal-sessions.js'
import { customersOf } from './contact-customers.js'
import { sameOpening } from './portal-opening.js'
import { contactSessionHolds, sessionContact } from './sign-in.js'

/**
 * The customers a contact's session may choose among: those its contact may sign in to now whose
 * portal is still at the opening the session signed in to (a portal closed since is not offered
 * again, even once opened again); a session of several contacts (`contacts`), those its contact
 * for each still reaches (`contactSessionHolds`). None once the contact is deleted or its password
 * or email changed (`sessionContact`), and none for a PIN's session.
 */
export async function choosableCustomers(ctx: PlatformContext, sessions: PortalSessions, session: Pick<PortalSession, 'contactID' | 'passwordDigest' | 'emailDigest' | 'portalOpenings' | 'contacts'>): Promise<Customer[]> {
  if (!session.contactID) return []
  if (!session.contacts) return (await sessionContact(ctx, session)) ? (await customersOf(ctx, sessions, session.contactID)).filter((c) => sameOpening(session, c)) : []
  // In ID order: the session recorded them so (JSON keeps the order, and orders index-like keys so).
  const choices = Object.entries(session.contacts).map(async ([customerID, contact]) => {
    const customer = await ctx.store.repository('customers').get(customerID)
    return (await contactSessionHolds(ctx, { ...contact, portalOpenings: session.portalOpenings }, customer)) ? customer! : null
  })
  return (await Promise.all(choices)).filter((c): c is Customer => c !== null)
}

/**
 * What a session records of its contact once it chooses `customerID`: for a session of several
 * contacts, the one that customer is reached as (the session's contact becomes it, `touch`);
 * otherwise nothing changes.
 */
export const contactChosen = (session: Pick<PortalSession, 'contacts'>, customerID: string): ContactSignIn | undefined => session.contacts?.[customerID]
