import type { Harness } from './harness.js'
import { bill, newCustomer, newFeature } from './billing.js'

/** A browser without JavaScript, over a real socket: keeps its cookies, follows nothing by itself. */
export class Visitor {
  cookies = new Map<string, string>()
  constructor(readonly base: string, readonly headers: Record<string, string> = {}, readonly portal = '/portal') {}
  async go(method: string, path: string, form?: Record<string, string>) {
    const res = await fetch(`${this.base}${this.portal}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...this.headers,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const [k, v] = pair.split('=')
      if (v) this.cookies.set(k, v)
      else this.cookies.delete(k)
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location') }
  }
  csrf(html: string) {
    return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
  }
  async signIn(fields: Record<string, string>) {
    const page = await this.go('GET', '/sign-in')
    return this.go('POST', '/sign-in', { csrf: this.csrf(page.text), ...fields })
  }
}

/** Two portal customers and one without, billed for January, with a contact, a shared contact and PINs. */
export async function world(h: Harness) {
  const a = await newCustomer(h, { accountNumber: 'ACC-1', companyName: 'Alpha Ltd', portalCustomerProfile: 'Standard Portal', paymentTerms: 14 })
  const b = await newCustomer(h, { accountNumber: 'ACC-2', companyName: 'Beta Ltd', portalCustomerProfile: 'Standard Portal' })
  const none = await newCustomer(h, { accountNumber: 'ACC-3', companyName: 'No Portal Ltd' })
  await newFeature(h, a, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
  await newFeature(h, b, { startDate: '2026-01-01', serviceCharge: '40.00', serviceChargeInterval: 'Calendar Monthly' })
  await bill(h, '2026-01-31')
  h.clock.set('2026-02-03T09:00:00Z')
  const contact = (await h.request('POST', `/customers/${a}/customerContacts`, { email: 'ann@alpha.example', accountPassword: 'correct horse battery' })).body
  const shared = (await h.request('POST', '/customerContacts', { email: 'sam@shared.example', accountPassword: 'shared secret words' })).body
  for (const c of [a, b, none]) await h.request('POST', `/customers/${c}?action=addSharedContact`, { sharedContactID: shared.id })
  const pin = (await h.request('POST', `/customers/${b}?action=generatePIN`, {})).body.pin
  const noPortalPin = (await h.request('POST', `/customers/${none}?action=generatePIN`, {})).body.pin
  const [invA] = (await h.request('GET', `/customers/${a}/invoices`)).body
  const [invB] = (await h.request('GET', `/customers/${b}/invoices`)).body
  return { a, b, none, contact, shared, pin, noPortalPin, invA, invB }
}
