import type { H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { isBillingError } from '../../core/errors.js'
import type { Credentials } from '../../core/portal/portal-login.js'
import { choosableCustomers, contactChosen } from '../../core/portal/choose-account.js'
import { resumeSession, signIn } from '../../core/portal/sign-in.js'
import { asActor } from '../security/actor-scope.js'
import { requestIdOf } from '../http/respond.js'
import { cookieOf, sameSecret, setCookie, SESSION_COOKIE, SIGN_IN_COOKIE } from './cookies.js'
import { isHttps, page, pageHeaders, portalBase, readForm, redirect, type PageRoute, type PortalOptions } from './portal-http.js'
import { accountName, endSession, landingPath, sellerOf } from './portal-session.js'
import { stylesheet } from './templates/style.js'

const REFUSED = 'The sign-in details are not right. Check them and try again.'

/** Sign-in, choosing the account, sign-out, and the stylesheet (contract 14.3). */
export function signInRoutes(o: PortalOptions): PageRoute[] {
  const token = () => o.platform.random.secret(24).replace(/[+/=]/g, '')
  const secure = (event: H3Event) => isHttps(event, o)

  /** The sign-in page, with a fresh CSRF token in a cookie and the form (double submit: there is no session yet). */
  const signInPage = (event: H3Event, status = 200, error: string | null = null, typed: Record<string, string> = {}) => {
    const csrf = token()
    return page(event, 'signIn', { title: 'Sign in', seller: sellerOf(o), csrf, error, email: typed.email ?? '', accountNumber: typed.accountNumber ?? '' }, status, [
      setCookie(SIGN_IN_COOKIE, csrf, portalBase(event), secure(event)),
    ])
  }

  return [
    {
      method: 'GET',
      path: '',
      async handler(event) {
        const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
        return redirect(event, session ? await landingPath(o, session.customerID) : '/sign-in')
      },
    },
    { method: 'GET', path: '/sign-in', handler: async (event) => signInPage(event) },
    {
      method: 'POST',
      path: '/sign-in',
      async handler(event) {
        const form = await readForm(event)
        if (!sameSecret(form.get('csrf') ?? '', cookieOf(event, SIGN_IN_COOKIE))) return signInPage(event, 403, 'The form expired. Please try again.')
        const credentials: Credentials =
          form.get('method') === 'pin'
            ? { kind: 'pin', accountNumber: form.get('accountNumber') ?? '', pin: form.get('pin') ?? '' }
            : { kind: 'password', email: form.get('email') ?? '', password: form.get('password') ?? '' }
        const requestID = requestIdOf(event) || null
        try {
          const { token: session, customerIDs, session: signedIn } = await signIn(o.platform, o.sessions, (actor, work) => asActor({ apiKeyName: actor, requestID }, work), credentials)
          const cookies = [setCookie(SESSION_COOKIE, session, portalBase(event), secure(event)), setCookie(SIGN_IN_COOKIE, '', portalBase(event), secure(event))]
          return redirect(event, customerIDs.length > 1 ? '/choose' : await landingPath(o, signedIn.customerID), cookies)
        } catch (e) {
          // A locked login, an unknown one and a wrong secret answer exactly alike (contract 14.3).
          if (isBillingError(e) && e.code === 'unauthenticated') {
            return signInPage(event, 401, REFUSED, credentials.kind === 'pin' ? { accountNumber: credentials.accountNumber } : { email: credentials.email })
          }
          throw e
        }
      },
    },
    {
      method: 'GET',
      path: '/choose',
      async handler(event) {
        const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
        if (!session?.contactID) return redirect(event, session ? await landingPath(o, session.customerID) : '/sign-in')
        const customers = (await choosableCustomers(o.platform, o.sessions, session)).map((c) => ({ id: c.id, number: c.accountNumber ?? c.id, name: accountName(c) }))
        // The contact was deleted, or its password or email changed, since it signed in; or it was
        // unlinked from every account since, or their portals closed.
        if (customers.length === 0) return endSession(event, o, session)
        return page(event, 'choose', { title: 'Choose an account', seller: sellerOf(o), csrf: session.csrfToken, customers })
      },
    },
    {
      method: 'POST',
      path: '/choose',
      async handler(event) {
        const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
        if (!session?.contactID) return redirect(event, '/sign-in')
        // None: as on the page, the session is over.
        const allowed = await choosableCustomers(o.platform, o.sessions, session)
        if (allowed.length === 0) return endSession(event, o, session)
        const form = await readForm(event)
        if (!sameSecret(form.get('csrf') ?? '', session.csrfToken)) return redirect(event, '/choose')
        const chosen = form.get('customerID') ?? ''
        if (!allowed.some((c) => c.id === chosen)) return redirect(event, '/choose')
        // A session of several contacts acts as the chosen customer's from now on.
        await o.sessions.touch(session.tokenHash, o.platform.clock.now(), chosen, contactChosen(session, chosen))
        return redirect(event, await landingPath(o, chosen))
      },
    },
    {
      method: 'POST',
      path: '/sign-out',
      async handler(event) {
        const session = await resumeSession(o.platform, o.sessions, cookieOf(event, SESSION_COOKIE))
        const form = await readForm(event)
        if (session && sameSecret(form.get('csrf') ?? '', session.csrfToken)) await o.sessions.remove(session.tokenHash)
        else if (session) return redirect(event, await landingPath(o, session.customerID))
        return redirect(event, '/sign-in', [setCookie(SESSION_COOKIE, '', portalBase(event), secure(event))])
      },
    },
    {
      method: 'GET',
      path: '/style.css',
      handler: async (event) =>
        new FastResponse(stylesheet, { headers: { ...pageHeaders(event), 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' } }),
    },
  ]
}
