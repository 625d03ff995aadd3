import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, ledgerOf, newCustomer, newFeature } from '../support/billing.js'
import { balanceOf, credit, lastInvoice } from '../support/credit-notes.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Credit notes and the billing engine's own corrections of the same charges (contract 15.3: a
 * line is never credited beyond its amount): neither gives back what the other already did.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`credit notes and the engine's refunds [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('what a credit note gave back of a recurring charge is not given back again: a drop refunds only the rest, a re-price nets it, a later change leaves it', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    try {
      const monthly = async () => {
        const c = await newCustomer(h)
        return { c, f: await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' }) }
      }
      const [dropped, repriced, kept, refundedFirst, halved] = [await monthly(), await monthly(), await monthly(), await monthly(), await monthly()]
      await bill(h, '2026-01-31')
      h.clock.set('2026-02-03T09:00:00Z')
      // The other way round: refunded by the engine first, then credited: only what the refund left.
      await act(h, `/features/${refundedFirst.f}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-01', dateBillTo: '2025-12-31' })
      assert.is((await h.request('PATCH', `/features/${halved.f}`, { serviceCharge: 50, updatedDate: '2026-01-16' })).status, 200)
      for (const [x, amount] of [[dropped, '100.00'], [repriced, '30.00'], [kept, '30.00']] as const) {
        const r = await credit(h, (await lastInvoice(h, x.c)).id, { reason: 'Goodwill', amount })
        assert.is(r.status, 201, JSON.stringify(r.body))
      }
      await act(h, `/features/${dropped.f}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-01', dateBillTo: '2025-12-31' })
      for (const [x, updatedDate] of [[repriced, '2026-01-01'], [kept, '2026-02-01']] as const) {
        const r = await h.request('PATCH', `/features/${x.f}`, { serviceCharge: 50, updatedDate })
        assert.is(r.status, 200, JSON.stringify(r.body))
      }
      await bill(h, '2026-02-28')
      await bill(h, '2026-02-28') // settled: nothing more
      const january = async (f: string) => (await ledgerOf(h, f)).filter((r) => r[1] === '2026-01-01').map((r) => [r[0], r[3]])
      // Credited in full, then dropped from before January: nothing is refunded again; the customer owes nothing and is owed nothing.
      assert.equal(await january(dropped.f), [['Recurring Charge', 100]])
      assert.is(await balanceOf(h, dropped.c), 0)
      // 30.00 credited, then January re-priced to 50.00: the other 70.00 is refunded and 50.00 charged: January comes to 50.00.
      assert.equal(await january(repriced.f), [['Recurring Charge', 100], ['Recurring Charge Refund', -70], ['Recurring Charge', 50]])
      assert.is(await balanceOf(h, repriced.c), 100)
      // A change from February leaves January's charge and its credit as they were.
      assert.equal(await january(kept.f), [['Recurring Charge', 100]])
      assert.is(await balanceOf(h, kept.c), 120)
      // A credit note on a period the engine corrected stands through the next run, as any does.
      const goodwill = await credit(h, (await lastInvoice(h, repriced.c)).id, { reason: 'Goodwill', amount: '10.00' })
      assert.is(goodwill.status, 201, JSON.stringify(goodwill.body))
      await bill(h, '2026-03-31')
      assert.equal(await january(repriced.f), [['Recurring Charge', 100], ['Recurring Charge Refund', -70], ['Recurring Charge', 50]])
      assert.is(await balanceOf(h, repriced.c), 100 - 10 + 50, 'less the credit, plus March')
      const january1 = async (c: string) => ((await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[])[0]
      const refused = await credit(h, (await january1(refundedFirst.c)).id, { reason: 'Goodwill', amount: '0.01' })
      assert.equal([refused.status, refused.body.error_code], [400, 400101], JSON.stringify(refused.body))
      const line = (await ledgerOf(h, refundedFirst.f)).length
      const byLine = await credit(h, (await january1(refundedFirst.c)).id, { reason: 'Goodwill', lines: [{ transactionID: (await january1(refundedFirst.c)).transactionIDs[0] }] })
      assert.equal([byLine.status, byLine.body.error_code, line], [400, 400101, 2], JSON.stringify(byLine.body))
      assert.is(await balanceOf(h, refundedFirst.c), 0)
      // Re-priced from the 16th: January is refunded whole and charged again in two pieces on the
      // next invoice; its first charge is given back, so nothing of it is left to credit.
      const half = await credit(h, (await january1(halved.c)).id, { reason: 'Goodwill', amount: '100.00' })
      assert.equal([half.status, half.body.error_code], [400, 400101], JSON.stringify(half.body))
      assert.match(half.body.error, 'more than the 0.00 left')
    } finally {
      h.clock.set('2026-03-02T09:00:00Z')
    }
  })


  test.run()
}
