import { BillingError } from '../errors.js'
import type { Customer, CustomerContact } from '../fields/entity.js'
import type { PlatformContext } from '../platform.js'
import type { ContactSignIn, PortalSession, PortalSessions } from '../ports/portal-sessions.js'
import { toStamp, type Stamp } from '../dates/stamp.js'
import { failuresFrom, isLocked, loginKey, loginOf, SESSION_IDLE_MS, type Credentials } from './portal-login.js'
import { customersOf, reachedBy } from './contact-customers.js'
import { openingsOf, sameOpening } from './portal-opening.js'

/** Runs `work` with history entries naming `actor` (the HTTP edge's actor scope). */
export type RunAs = <T>(actor: string, work: () => Promise<T>) => Promise<T>

/** A new session: the token goes to the browser once; only its digest is kept. */
export interface SignedIn {
  readonly token: string
  readonly session: PortalSession
  /** The customers the visitor may look at; more than one: it chooses. */
  readonly customerIDs: readonly string[]
}

/** One answer for every refusal (wrong secret, unknown login, no portal, locked): nothing tells them apart. */
export const signInRefused = () => new BillingError('unauthenticated', 'The sign-in details are not right', 'Check them and try again.')

/** A hash that no secret matches, verified when nothing is found, so a miss costs what a wrong secret does. */
let decoy: Promise<string> | null = null

/**
 * Signs a visitor in (contract 14.3). Secrets are checked against their stored hashes by the
 * password hasher (constant time); a locked login, an unknown one and a wrong secret all verify
 * one hash and answer `signInRefused`. An email and password that match several contacts (one
 * person, a contact of each of several customers) reach the customers of each: the session keeps
 * the contact each is reached as (`contacts`), and acts as it once that customer is chosen.
 * Sign-ins and failures on a known account are history entries naming `portal:<contact ID>` or `portal:pin`.
 */
export async function signIn(ctx: PlatformContext, sessions: PortalSessions, runAs: RunAs, credentials: Credentials): Promise<SignedIn> {
  // An empty secret never signs in, whatever is stored (a hash of "" kept from before the
  // field refused it): refused before any look-up, with the answer a wrong one gets.
  if ((credentials.kind === 'password' ? credentials.password : credentials.pin) === '') throw signInRefused()
  const now = ctx.clock.now()
  const login = loginOf(credentials)
  // The attempt is stored as a failure before its secret is checked, and forgotten if it signs in:
  // attempts sent at once each count those before them, so no more than the lock allows are checked.
  const attempt = await sessions.startAttempt(login, now, failuresFrom(now), (failures) => isLocked(failures, now))
  const found = credentials.kind === 'password' ? await byPassword(ctx, sessions, credentials) : await byPin(ctx, credentials)
  decoy ??= ctx.passwords.hash('portal decoy secret')
  const secret = credentials.kind === 'password' ? credentials.password : credentials.pin
  const hashes = found?.hashes.length ? found.hashes : [await decoy]
  const matched: number[] = []
  for (let i = 0; i < hashes.length; i++) {
    // Every candidate is verified, so the time taken does not say which one matched.
    if (await ctx.passwords.verify(secret, hashes[i])) matched.push(i)
  }
  const ok = attempt !== null && found !== null && found.hashes.length > 0 && matched.length > 0
  if (!ok) {
    if (found?.customers.length) {
      const actor = found.actors[matched[0] ?? 0] ?? found.actors[0]
      await runAs(actor, () => recordPortal(ctx, found.customers, 'portalSignInFailed'))
    }
    throw signInRefused()
  }
  await sessions.forgetAttempt(attempt)
  // Each customer with the contact it is reached as: one person may be a direct contact of several, with one password.
  const reached = credentials.kind === 'pin' ? [{ customer: found.customers[matched[0]], at: matched[0] }] : await reachedBy(ctx, sessions, found.contactIDs, matched)
  if (reached.length === 0) throw signInRefused()
  const customers = reached.map((r) => r.customer)
  const signInAs = (at: number): ContactSignIn => ({
    contactID: found.contactIDs[at],
    actor: found.actors[at],
    passwordDigest: passwordDigestOf(ctx, found.hashes[at]),
    emailDigest: emailDigestOf(ctx, found.emails[at]),
  })
  const first = reached[0].at
  const contact = credentials.kind === 'password' ? signInAs(first) : null
  const token = ctx.random.secret(32).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  const session: PortalSession = {
    tokenHash: ctx.digest.sha256(token),
    customerID: customers.length === 1 ? customers[0].id : null,
    contactID: contact?.contactID ?? null,
    actor: found.actors[first],
    csrfToken: ctx.random.secret(24).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    createdStamp: now,
    lastSeenStamp: now,
    passwordDigest: contact?.passwordDigest ?? null,
    emailDigest: contact?.emailDigest ?? null,
    pinDigest: contact === null ? pinDigestOf(ctx, customers[0]) : null,
    portalOpenings: openingsOf(customers),
    contacts: reached.some((r) => r.at !== first) ? Object.fromEntries(reached.map((r) => [r.customer.id, signInAs(r.at)])) : null,
  }
  await sessions.create(session)
  // Each customer's entry names the contact it was reached as.
  for (const at of new Set(reached.map((r) => r.at))) {
    await runAs(found.actors[at], () => recordPortal(ctx, reached.filter((r) => r.at === at).map((r) => r.customer), 'portalSignIn'))
  }
  return { token, session, customerIDs: customers.map((c) => c.id) }
}

/** The session a token stands for, if it has not been idle for 30 minutes; its idle timer restarts. */
export async function resumeSession(ctx: PlatformContext, sessions: PortalSessions, token: string): Promise<PortalSession | null> {
  if (!token) return null
  const tokenHash = ctx.digest.sha256(token)
  const session = await sessions.find(tokenHash)
  if (!session) return null
  const now = ctx.clock.now()
  if (Date.parse(now) - Date.parse(session.lastSeenStamp) >= SESSION_IDLE_MS) {
    await sessions.remove(tokenHash)
    return null
  }
  // A write per page would serialise a busy portal on SQLite: the idle timer restarts at most every
  // 30 seconds, so a session ends between 29.5 and 30 minutes after its last request.
  if (Date.parse(now) - Date.parse(session.lastSeenStamp) < TOUCH_EVERY_MS) return session
  await sessions.touch(tokenHash, now)
  return { ...session, lastSeenStamp: now }
}

/** How often a session's last-seen stamp is written. */
export const TOUCH_EVERY_MS = 30_000

/** Idle sessions' cut-off now: sessions last seen before it are over. */
export const idleCutoff = (now: Stamp): Stamp => toStamp(Date.parse(now) - SESSION_IDLE_MS)

/**
 * What a session remembers of its contact's password: a digest of the stored hash, not the hash
 * itself. A new password (or the same one set again) is stored with a new salt, so any change
 * of the password changes it.
 */
const passwordDigestOf = (ctx: Pick<PlatformContext, 'digest'>, hash: string): string => ctx.digest.sha256(hash)

/**
 * What a session remembers of the email its contact signed in with, the login's identifier: a
 * digest, so the sessions table holds no address. The address as stored: any change of it ends
 * the sessions, even one sign-in would not tell apart (another case).
 */
const emailDigestOf = (ctx: Pick<PlatformContext, 'digest'>, email: string): string => ctx.digest.sha256(`email:${email}`)

/**
 * The contact a session signed in as, or null once the session may no longer act for it: the
 * contact is deleted, its password or its email (the login) cleared, or either changed since
 * the session signed in (contract 14.3: a sign-in's identity changed, through the API or
 * otherwise, ends the contact's other sessions at their next request). The contact's row is
 * read anyway, so the check costs a request nothing more. Null also for a session of a PIN.
 */
export async function sessionContact(ctx: Pick<PlatformContext, 'store' | 'digest'>, session: Pick<PortalSession, 'contactID' | 'passwordDigest' | 'emailDigest'>): Promise<CustomerContact | null> {
  if (!session.contactID || !session.passwordDigest || !session.emailDigest) return null
  const contact = await ctx.store.contacts.get(session.contactID)
  if (typeof contact?.accountPassword !== 'string' || !contact.accountPassword) return null
  if (typeof contact.email !== 'string' || !contact.email) return null
  const same = passwordDigestOf(ctx, contact.accountPassword) === session.passwordDigest && emailDigestOf(ctx, contact.email) === session.emailDigest
  return same ? contact : null
}

/**
 * What a session remembers of the customer's PIN sign-in: a digest of its account number (the
 * login, as stored) and its PIN's stored hash. A new PIN is stored with a new salt, so any
 * regeneration changes it, even one that happens to draw the same digits.
 */
const pinDigestOf = (ctx: Pick<PlatformContext, 'digest'>, customer: Pick<Customer, 'accountNumber' | 'portalPIN'>): string =>
  ctx.digest.sha256(JSON.stringify(['pin', customer.accountNumber, customer.portalPIN]))

/**
 * Whether a PIN's session may still look at its customer, as read for the request: the customer
 * is there with its portal open at the opening the session signed in to (`sameOpening`), and its
 * account number and PIN are those the session signed in with (contract 14.3: a new PIN, for one
 * that leaked, ends the sessions of the old one at their next request). The customer's row is
 * read for every page anyway, so the check costs a request nothing more. False for a contact's
 * session, and one from before PIN sessions kept a digest.
 */
export function pinSessionHolds(ctx: Pick<PlatformContext, 'digest'>, session: Pick<PortalSession, 'contactID' | 'pinDigest' | 'portalOpenings'>, customer: Customer | undefined): boolean {
  if (session.contactID || !session.pinDigest || !customer?.portalCustomerProfile || !sameOpening(session, customer)) return false
  if (typeof customer.portalPIN !== 'string' || !customer.portalPIN || !customer.accountNumber) return false
  return pinDigestOf(ctx, customer) === session.pinDigest
}

/**
 * Whether a contact's session may still look at a customer: the contact still signs in as it did
 * (`sessionContact`) and is the customer's own or shared with it. Unlinking, deleting a contact
 * or changing its password or email takes effect on its next request, not when its session would
 * have ended anyway.
 */
export async function contactReaches(ctx: PlatformContext, session: Pick<PortalSession, 'contactID' | 'passwordDigest' | 'emailDigest'>, customerID: string): Promise<boolean> {
  const contact = await sessionContact(ctx, session)
  if (!contact) return false
  return contact.customerID === customerID || (await ctx.store.contacts.isLinked(customerID, contact.id))
}

/**
 * Whether a contact's session may still look at its chosen customer, as read for the request:
 * the customer is there with its portal open (only those can be signed in to, `customersOf`) at
 * the opening the session signed in to (`sameOpening`), and the contact still reaches it
 * (`contactReaches`). A portal closed ends the session, as unlinking the contact does, even when
 * the contact reaches other customers: it signs in again and is offered those. False for a PIN's
 * session.
 */
export async function contactSessionHolds(ctx: PlatformContext, session: Pick<PortalSession, 'contactID' | 'passwordDigest' | 'emailDigest' | 'portalOpenings'>, customer: Customer | undefined): Promise<boolean> {
  if (!session.contactID || !customer?.portalCustomerProfile || !sameOpening(session, customer)) return false
  return contactReaches(ctx, session, customer.id)
}

interface Found {
  readonly hashes: string[]
  readonly actors: string[]
  readonly contactIDs: string[]
  /** Each contact's email as stored: what its session's `emailDigest` is taken from. */
  readonly emails: string[]
  readonly customers: Customer[]
}

async function byPassword(ctx: PlatformContext, sessions: PortalSessions, c: Extract<Credentials, { kind: 'password' }>): Promise<Found | null> {
  const email = loginKey('email', c.email)
  if (!email || email.length > 320) return null
  const contacts = (await ctx.store.contacts.list({ where: [{ op: 'eq', column: 'emailKey', value: email }], limit: 20 })) as CustomerContact[]
  const withPassword = contacts.filter((k) => typeof k.accountPassword === 'string' && k.accountPassword)
  if (withPassword.length === 0) return null
  const customers = (await Promise.all(withPassword.map((k) => customersOf(ctx, sessions, k.id)))).flat()
  return {
    hashes: withPassword.map((k) => k.accountPassword as string),
    actors: withPassword.map((k) => `portal:${k.id}`),
    contactIDs: withPassword.map((k) => k.id),
    emails: withPassword.map((k) => k.email as string),
    customers,
  }
}

/**
 * The customers whose account number has the typed one's key. Account numbers are unique as
 * stored, not by key ("ACC-7" and "ACC-7 "): each such customer's PIN is a candidate, as each
 * contact's password of an address is.
 */
async function byPin(ctx: PlatformContext, c: Extract<Credentials, { kind: 'pin' }>): Promise<Found | null> {
  const accountNumber = loginKey('account', c.accountNumber)
  if (!accountNumber || accountNumber.length > 200) return null
  const found = await ctx.store.repository('customers').list({ where: [{ op: 'eq', column: 'accountNumberKey', value: accountNumber }], limit: 20 })
  const customers = found.filter((k) => k.portalCustomerProfile && typeof k.portalPIN === 'string' && k.portalPIN)
  if (customers.length === 0) return null
  return { hashes: customers.map((k) => k.portalPIN as string), actors: customers.map(() => 'portal:pin'), contactIDs: [], emails: [], customers }
}

/** A history entry on each customer for a portal sign-in or failure (contract 14.3). */
async function recordPortal(ctx: PlatformContext, customers: readonly Customer[], action: string): Promise<void> {
  const createdStamp = ctx.clock.now()
  await ctx.store.changes.append(
    customers.map((c) => ({ resource: 'customers', resourceID: c.id, customerID: c.id, action, changes: {}, createdStamp })),
    [],
  )
}
