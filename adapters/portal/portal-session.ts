import type { H3Event } from 'h3'
import { isBillingError } from '../../core/errors.js'
import type { Customer } from '../../core/fields/entity.js'
import type { PortalSession } from '../../core/ports/portal-sessions.js'
import { pagesOf, type PortalPage } from '../../core/presets/presets.js'
import { portalCustomer } from '../../core/portal/portal-pages.js'
import { resumeSession } from '../../core/portal/sign-in.js'
import { asActor } from '../security/actor-scope.js'
import { requestIdOf } from '../http/respond.js'
import { cookieOf, sameSecret, SESSION_COOKIE } from './cookies.js'
import { page, readForm, redirect, type PortalOptions } from './portal-http.js'

/** A signed-in request: its session, the customer it looks at, and what the layout shows. */
export interface Visit {
  readonly session: PortalSession
  readonly customer: Customer
  readonly form: URLSearchParams
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

/** An account's name as a customer knows it. */
export const accountName = (c: Customer): string => c.companyName ?? ([c.firstnames, c.lastname].filter(Boolean).join(' ') || `Customer ${c.id}`)

/**
 * Runs a page for a signed-in visitor: without a live session it goes to the sign-in page; a
 * contact of several customers chooses one first; a form that changes something must carry the
 * session's CSRF token (403 otherwise); `page` names the profile's page it shows (absent: 404).
 * History entries it writes name the session's `portal:<contact ID>` or `portal:pin`.
 */
export function signedIn(o: PortalOptions, show: PortalPage | 'pay', handler: (event: H3Event, visit: Visit) => Promise<Response>, changes = false) {
  return async (event: H3Event): Promise<Response> => {
    const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
    if (!session) return redirect(event, '/sign-in')
    if (!session.customerID) return redirect(event, '/choose')
    const form = changes ? await readForm(event) : new URLSearchParams()
    if (changes && !sameSecret(form.get('csrf') ?? '', session.csrfToken)) {
      return page(event, 'message', { title: 'Form expired', seller: sellerOf(o), message: 'This form has expired. Please go back, reload the page and try again.', linkPath: 'summary', linkLabel: 'Back to your summary' }, 403)
    }
    try {
      const customer = await portalCustomer(o.platform, session.customerID)
      const pages = pagesOf(o.platform.presets, customer.portalCustomerProfile!)
      const canPay = (o.platform.presets.portalProfiles[customer.portalCustomerProfile!] ?? []).length > 0
      const allowed = (p: PortalPage | 'pay') => (p === 'pay' ? canPay : pages.includes(p))
      if (!allowed(show)) return notFoundPage(event, o)
      const visit: Visit = {
        session,
        customer,
        form,
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
  return page(event, 'message', { title: 'Not found', seller: sellerOf(o), message: 'There is no such page in your account.', linkPath: 'summary', linkLabel: 'Back to your summary' }, 404)
}

export { sellerOf }
