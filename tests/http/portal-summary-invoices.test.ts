import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** The summary's next invoice date by the billing cycle (contract 14.3, 10.1), and suppressed invoices (10.4), shown in the portal since they are owed. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal summary and suppressed invoices [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  /** The summary's next invoice date on `day`, signed in afresh (a day later, the last session is long over). */
  const nextInvoice = async (h: Harness, base: string, day: string, signIn: Record<string, string>) => {
    h.clock.set(`${day}T09:00:00Z`)
    const v = new Visitor(base)
    assert.is((await v.signIn(signIn)).status, 303)
    return /<dt>Next invoice<\/dt><dd>([^<]*)<\/dd>/.exec((await v.go('GET', '/summary')).text)?.[1]
  }

  test('the next invoice date counts whole cycles from the last invoice: a month-end day does not drift once an invoice was skipped', async ({ h, base }) => {
    const w = await world(h)
    const b = { method: 'pin', accountNumber: 'ACC-2', pin: w.pin }
    // Last invoiced 31 January; no run in February.
    assert.is(await nextInvoice(h, base, '2026-02-10', b), '28 Feb 2026')
    assert.is(await nextInvoice(h, base, '2026-03-10', b), '31 Mar 2026', 'two months from 31 January, not one from 28 February')
    assert.is(await nextInvoice(h, base, '2026-03-31', b), '31 Mar 2026', 'today, when that is the day')
    assert.is(await nextInvoice(h, base, '2026-04-01', b), '30 Apr 2026')
    assert.is(await nextInvoice(h, base, '2026-05-01', b), '31 May 2026')

    assert.is((await h.request('PATCH', `/customers/${w.b}`, { billingCycle: 'Quarterly' })).status, 200)
    assert.is(await nextInvoice(h, base, '2026-03-10', b), '30 Apr 2026')
    assert.is(await nextInvoice(h, base, '2026-05-01', b), '31 Jul 2026', 'six months from 31 January, not three from 30 April')
    // The page agrees with the runs (contract 10.1): one on 30 April invoices the customer; one on 31 March, in the month before, does not.
    h.clock.set('2026-03-10T09:00:00Z')
    await bill(h, '2026-03-31')
    assert.is((await h.request('GET', `/customers/${w.b}/invoices`)).body.length, 1, 'not due in March')
    await bill(h, '2026-04-30')
    const invoices = (await h.request('GET', `/customers/${w.b}/invoices`)).body
    assert.equal(invoices.map((i: any) => i.invoiceDate), ['2026-01-31', '2026-04-30'])
  })

  test('a suppressed invoice is listed and served (it is owed, only not sent), and the next invoice date counts from it', async ({ h, base }) => {
    const c = await newCustomer(h, { accountNumber: 'LOW-1', companyName: 'Low Ltd', portalCustomerProfile: 'Standard Portal', billingCycle: 'Quarterly', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 50, lowInvoiceAction: 'Suppress', emailBillType: 'PDF', email: 'low@x.example' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    const [invoice] = (await h.request('GET', `/customers/${c}/invoices`)).body
    assert.is(invoice.suppressed, true)
    h.clock.set('2026-02-10T09:00:00Z')
    await h.request('PATCH', `/customers/${c}`, { GDPRPECRConsentGiven: 'Yes' })
    const pin = (await h.request('POST', `/customers/${c}?action=generatePIN`, {})).body.pin
    const v = new Visitor(base)
    const low = { method: 'pin', accountNumber: 'LOW-1', pin }
    await v.signIn(low)
    const list = await v.go('GET', '/invoices')
    assert.is(list.status, 200)
    assert.ok(list.text.includes(`/invoices/${invoice.id}`), 'listed')
    assert.ok(list.text.includes(invoice.invoiceNumber), 'listed')
    assert.is((await v.go('GET', `/invoices/${invoice.id}`)).status, 200, 'its document')
    const summary = (await v.go('GET', '/summary')).text
    assert.not.match(summary, /Last invoice<\/dt><dd>None yet/)
    // The billing cycle counts from it (contract 10.1): the next is a quarter on, not this month's end.
    assert.is(await nextInvoice(h, base, '2026-02-10', low), '30 Apr 2026')
  })

  test.run()
}
