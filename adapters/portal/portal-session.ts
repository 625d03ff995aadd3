import type { H3Event } from 'h3'
import { isBillingError } from '../../core/errors.js'
import type { Customer } from '../../core/fields/entity.js'
import type { PortalSession } from '../../core/ports/portal-sessions.js'
import { pagesOf, type PortalPage } from '../../core/presets/presets.js'
import { pagesByLoginFlags } from '../../core/portal/login-flags.js'
import { portalCustomer } from '../../core/portal/portal-pages.js'
import { contactSessionHolds, pinSessionHolds, resumeSession } from '../../core/portal/sign-in.js'
import { asActor } from '../security/actor-scope.js'
import { requestIdOf } from '../http/respond.js'
import { cookieOf, sameSecret, setCookie, SESSION_COOKIE } from './cookies.js'
import { isHttps, page, portalBase, readForm, redirect, type PortalOptions } from './portal-http.js'

/** A signed-in request: its session, the customer it looks at, and what the layout shows. */
export interface Visit {
  readonly session: PortalSession
  readonly customer: Customer
  readonly form: URLSearchParams
  /** Whether the customer's profile, less what its `loginFlags` take away, offers the page. */
  shows(page: PortalPage | 'pay'): boolean
  /** The layout's data: account, navigation, CSRF token for sign-out. */
  layout(title: string, current: string): Record<string, unknown>
}

const navigation: readonly { path: string; label: string; page?: PortalPage }[] = [
  { path: 'summary', label: 'Summary', page: 'summary' },
  { path: 'invoices', label: 'Invoices', page: 'invoices' },
  { path: 'calls', label: 'Calls', page: 'calls' },
  { path: 'allowances', label: 'Allowances', page: 'allowances' },
  { path: 'payments', label: 'Payments', page: 'payments' },
  { path: 'pay', label: 'Pay now' },
]

/** The seller's name for the header. */
const sellerOf = (o: PortalOptions) => (o.platform.presets as { seller?: { name?: string } }).seller?.name ?? 'Customer portal'

/** Whether the customer's profile offers a page: its pages that its `loginFlags` keep, and Pay now when it has payment links. */
function offers(o: PortalOptions, customer: Customer): (p: PortalPage | 'pay') => boolean {
  const pages = pagesByLoginFlags(pagesOf(o.platform.presets, customer.portalCustomerProfile!), customer)
  const canPay = (o.platform.presets.portalProfiles[customer.portalCustomerProfile!] ?? []).length > 0
  return (p) => (p === 'pay' ? canPay : pages.includes(p))
}

/**
 * Where a visitor goes when it names no page (after signing in, choosing, or at `/portal/`):
 * the first page of the navigation the customer's profile offers, Pay now if that is all, and
 * the summary (whose 404 says so) for a profile that offers nothing or a customer gone.
 */
export async function landingPath(o: PortalOptions, customerID: string | null): Promise<string> {
  if (!customerID) return '/choose'
  const customer = await o.platform.store.repository('customers').get(customerID)
  if (!customer?.portalCustomerProfile) return '/summary'
  const allowed = offers(o, customer)
  return `/${navigation.find((n) => allowed(n.page ?? 'pay'))?.path ?? 'summary'}`
}

/** Ends a session the server no longer honours and sends the visitor to sign in again. */
export async function endSession(event: H3Event, o: PortalOptions, session: PortalSession): Promise<Response> {
  await o.sessions.remove(session.tokenHash)
  return redirect(event, '/sign-in', [setCookie(SESSION_COOKIE, '', portalBase(event), isHttps(event, o))])
}

/** An account's name as a customer knows it. */
export const accountName = (c: Customer): string => c.companyName ?? ([c.firstnames, c.lastname].filter(Boolean).join(' ') || `Customer ${c.id}`)

/**
 * Runs a page for a signed-in visitor: without a live session it goes to the sign-in page; a
 * contact of several customers chooses one first; a form that changes something must carry the
 * session's CSRF token (403 otherwise); `page` names the profile's page it shows (absent: 404).
 * History entries it writes name the session's `portal:<contact ID>` or `portal:pin`. A
 * contact's session ends once the contact is deleted, its password or email changed or cleared,
 * it no longer reaches the customer, or the customer's portal closed (even if opened again since)
 * or the customer gone; a PIN's, once the PIN is regenerated or cleared, the account number
 * changed, or the customer's portal closed (likewise) or the customer gone.
 */
export function signedIn(o: PortalOptions, show: PortalPage | 'pay', handler: (event: H3Event, visit: Visit) => Promise<Response>, changes = false) {
  return async (event: H3Event): Promise<Response> => {
    const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
    if (!session) return redirect(event, '/sign-in')
    if (!session.customerID) return redirect(event, '/choose')
    // The page's one read of the customer, which the session (a contact's or a PIN's) is checked against.
    const found = await o.platform.store.repository('customers').get(session.customerID)
    const holds = session.contactID ? await contactSessionHolds(o.platform, session, found) : pinSessionHolds(o.platform, session, found)
    if (!holds) return endSession(event, o, session)
    const form = changes ? await readForm(event) : new URLSearchParams()
    if (changes && !sameSecret(form.get('csrf') ?? '', session.csrfToken)) {
      return page(event, 'message', { title: 'Form expired', seller: sellerOf(o), message: 'This form has expired. Please go back, reload the page and try again.', linkPath: '', linkLabel: 'Back to your account' }, 403)
    }
    try {
      const customer = portalCustomer(found, session.customerID)
      const allowed = offers(o, customer)
      if (!allowed(show)) return notFoundPage(event, o)
      const visit: Visit = {
        session,
        customer,
        form,
        shows: allowed,
        layout: (title, current) => ({
          title,
          seller: sellerOf(o),
          csrf: session.csrfToken,
          account: { number: customer.accountNumber ?? customer.id, name: accountName(customer) },
          nav: navigation.filter((n) => allowed(n.page ?? 'pay')).map((n) => ({ ...n, current: n.path === current })),
        }),
      }
      return await asActor({ apiKeyName: session.actor, requestID: requestIdOf(event) || null }, () => handler(event, visit))
    } catch (e) {
      // Another customer's invoice, a customer gone: the same 404 as an ID that never existed.
      if (isBillingError(e) && e.code === 'not_found') return notFoundPage(event, o)
      throw e
    }
  }
}

/** The portal's 404: nothing says whether the thing exists for someone else. */
export function notFoundPage(event: H3Event, o: PortalOptions): Response {
  // The portal's root, not the summary: a profile may leave the summary out (landingPath).
  return page(event, 'message', { title: 'Not found', seller: sellerOf(o), message: 'There is no such page in your account.', linkPath: '', linkLabel: 'Back to your account' }, 404)
}

export { sellerOf }
