import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { transactionsApi } from '../../apps/library/billing-api.js'
import { isBillingError } from '../../core/errors.js'
import { bill, newCustomer } from '../support/billing.js'
import { credit, lastInvoice, stored } from '../support/credit-notes.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Who may give money back and who may see it (contract 15.3, 2): a Refund is the refunds flow's
 * alone, and credit notes and refunds, level 3, are not read through history or events below it.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness; c: string }>(`credit notes and refunds: who may make and see them [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-03-02T09:00:00Z' })
    // A customer with a credit note on its invoice: its history and events are the level-3 rows.
    ctx.c = await newCustomer(ctx.h, { paymentTerms: 14 })
    assert.is((await ctx.h.request('POST', `/customers/${ctx.c}/transactions`, { transactionType: 'Installation', amount: '10.00' })).status, 201)
    await bill(ctx.h, '2026-03-02')
    assert.is((await credit(ctx.h, (await lastInvoice(ctx.h, ctx.c)).id, { reason: 'Goodwill', amount: '1.00' })).status, 201)
  })
  test.after(async (ctx) => ctx.h.close())

  test('a Refund is made by the refunds flow alone: a manual one, by the API or the library, is 400101 naming transactionType, and nothing is written', async ({ h }) => {
    // 50.00 of credit held: the refunds flow refuses 80.00; a manual Refund of 80.00 must not get round it.
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: '50' })).status, 201)
    assert.is((await h.request('POST', `/customers/${c}/refunds`, { amount: '80' })).body.error_code, 400101)
    const before = await stored(h)
    for (const key of [h.keys.low, h.keys.admin]) {
      const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Refund', amount: '80' }, { key })
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, 'transactionType')
      assert.match(r.body.hint, /refunds/)
    }
    const refused = await transactionsApi(h.platform.context).add(c, { transactionType: 'Refund', amount: '80' }).then(() => null, (error: unknown) => error)
    assert.ok(isBillingError(refused) && refused.code === 'invalid_field' && /transactionType/.test(refused.message), String(refused))
    assert.equal(await stored(h), before)
    // The types tests and operators add by hand stay allowed.
    for (const transactionType of ['Credit Note', 'Debit Note', 'Call Charges']) {
      assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType, amount: '1' })).status, 201, transactionType)
    }
    assert.is((await h.request('POST', `/customers/${c}/refunds`, { amount: '50' })).status, 201)
  })

  test('below expert level 3, history and events leave credit notes and refunds out (in the query: pages stay full), and asking for them is 403103', async ({ h, c }) => {
    const [note] = (await h.request('GET', `/customers/${c}/creditNotes`)).body as any[]
    const low = { key: h.keys.low }
    const refusedLow = async (path: string) => {
      const r = await h.request('GET', path, undefined, low)
      assert.equal([r.status, r.body.error_code], [403, 403103], `${path}: ${r.text}`)
    }
    await refusedLow(`/creditNotes/${note.id}/history`)
    assert.is((await h.request('GET', `/creditNotes/${note.id}/history`)).status, 200)
    await refusedLow('/history?resource=creditNotes')
    await refusedLow('/events?type=credit_note.issued')
    await refusedLow('/events?type=refund.created')
    const hidden = { history: (e: any) => e.resource === 'creditNotes', events: (e: any) => ['credit_note.issued', 'refund.created'].includes(e.type) }
    for (const [path, isHidden] of [['/history', hidden.history], [`/history?customerID=${c}`, hidden.history], ['/events', hidden.events]] as const) {
      const all = (await h.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`)).body as any[]
      assert.ok(all.length < 1000 && all.some(isHidden), `${path}: the admin key sees them`)
      const shown = (await h.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`, undefined, low)).body as any[]
      assert.equal(shown.map((e) => e.id), all.filter((e) => !isHidden(e)).map((e) => e.id), path)
      // A page from just before a hidden entry is still full, and idAfter walks on in order.
      const at = all.findIndex(isHidden)
      const after = at === 0 ? '0' : all[at - 1].id
      const expected = all.slice(at).filter((e) => !isHidden(e)).slice(0, 2).map((e) => e.id)
      const page = await h.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=2&idAfter=${after}`, undefined, low)
      assert.equal(page.body.map((e: any) => e.id), expected, `${path} from ${after}`)
    }
    const issued = ((await h.request('GET', '/events?type=credit_note.issued&limit=1')).body as any[])[0]
    await refusedLow(`/events/${issued.id}`)
    assert.is((await h.request('GET', `/events/${issued.id}`)).body.data.id, issued.data.id)
    const other = ((await h.request('GET', '/events?type=customer.created&limit=1', undefined, low)).body as any[])[0]
    assert.is((await h.request('GET', `/events/${other.id}`, undefined, low)).status, 200)
  })


  test.run()
}
