import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { Visitor, world } from '../support/portal-visitor.js'
import { activeTargets } from '../support/targets.js'

/** Pay now (contract 14.3, 15.1): links only for an amount outstanding, and a form that makes them once. */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; base: string }>(`portal Pay now [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
    ctx.base = await ctx.h.listen()
  })
  test.after.each(async (ctx) => ctx.h.close())

  const links = async (h: Harness, customerID: string) => (await h.request('GET', `/customers/${customerID}/paymentLinks`)).body

  test('a form from before the amount was paid makes no link: the page says there is nothing to pay', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    await v.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    const form = await v.go('GET', '/pay')
    assert.match(form.text, /Get payment links/)
    const outstanding = (await h.request('GET', `/invoices/${w.invB.id}`)).body.amountOutstanding
    assert.is((await h.request('POST', `/customers/${w.b}/transactions`, { transactionType: 'Payment', amount: -outstanding, transactionDate: '2026-02-03', description: 'paid' })).status, 201)
    const sent = await v.go('POST', '/pay', { csrf: v.csrf(form.text) })
    assert.is(sent.status, 200)
    assert.match(sent.text, /Amount outstanding: <strong>£0\.00<\/strong>/)
    assert.match(sent.text, /Nothing to pay just now/)
    assert.not.match(sent.text, /pay\.example\.com/)
    assert.equal(await links(h, w.b), [], 'no link for nothing')
    assert.is((await v.go('POST', '/pay', { csrf: 'forged' })).status, 403, 'the CSRF token is still checked first')
  })

  test('the form redirects to a page showing the links it made (Post/Redirect/Get): reloading it makes no other link', async ({ h, base }) => {
    const w = await world(h)
    const v = new Visitor(base)
    await v.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const form = await v.go('GET', '/pay')
    const sent = await v.go('POST', '/pay', { csrf: v.csrf(form.text) })
    assert.is(sent.status, 303)
    const [link] = await links(h, w.a)
    assert.is(sent.location, `/portal/pay?made=${link.paymentLinkUUID}`)
    for (let i = 0; i < 2; i++) {
      const shown = await v.go('GET', sent.location!.slice('/portal'.length))
      assert.is(shown.status, 200)
      for (const l of link.links) assert.ok(shown.text.includes(`href="${l.url}"`), l.url)
      assert.not.match(shown.text, /Get payment links/)
    }
    assert.is((await links(h, w.a)).length, 1, 'one link, however often the page is loaded')
    // Another customer's link, an expired one (below), or none: the page as before, with its form.
    const pin = new Visitor(base)
    await pin.signIn({ method: 'pin', accountNumber: 'ACC-2', pin: w.pin })
    const other = await pin.go('GET', `/pay?made=${link.paymentLinkUUID}`)
    assert.not.ok(other.text.includes(link.links[0].url), "not another customer's")
    assert.match(other.text, /Get payment links/)
    for (const made of ['', 'nonsense', '00000000-0000-4000-8000-000000000000']) assert.match((await v.go('GET', `/pay?made=${made}`)).text, /Get payment links/, made)
    h.clock.set('2026-03-10T09:00:00Z')
    await v.signIn({ method: 'password', email: 'ann@alpha.example', password: 'correct horse battery' })
    const expired = await v.go('GET', `/pay?made=${link.paymentLinkUUID}`)
    assert.not.ok(expired.text.includes(link.links[0].url), 'an expired link is not shown')
    assert.is((await links(h, w.a))[0].status, 'Expired')
  })

  test.run()
}
