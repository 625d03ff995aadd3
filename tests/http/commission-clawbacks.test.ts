import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { statements } from '../support/commission-statements.js'

/**
 * Contract 16.3 with README "Credit notes": crediting a charge's whole net, in one note or
 * several, and refunding what the notes left, take back exactly the commission it earned.
 */
const get = async (h: Harness, path: string) => {
  const r = await h.request('GET', path)
  assert.is(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
  return r.body
}
const cents = (x: number) => Math.round(x * 100)

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`commission clawbacks of pieces (contract 16.3) [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-31T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  /** Each holder's commission on the feature's January charge over the given runs' statements. */
  const earnedOn = async (h: Harness, runs: string[]) => {
    const out = new Map<string, number>()
    for (const run of runs)
      for (const s of await statements(h, `billingRunID=${run}`))
        for (const l of s.lines) if (l.transactionType !== 'Recurring Charge' || run === runs[0]) out.set(s.holder, (out.get(s.holder) ?? 0) + cents(l.commission))
    return Object.fromEntries(out)
  }

  test('a charge credited in three notes of 3.33, 3.33 and 3.34: each holder gives back exactly the 1.00 it earned, a piece within a penny of its share', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'P-1', commissionHolder: 'Alice Morgan' })
    const f = await newFeature(h, c, {
      startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage',
      commissionHolderID2: 'Ben Carter', serviceChargeCommission2: '1.00', serviceChargeCommissionType2: 'Fixed Amount',
    })
    const jan = await bill(h, '2026-01-31')
    h.clock.set('2026-01-31T15:00:00Z')
    const [invoice] = await get(h, `/customers/${c}/invoices`)
    const charge = ((await get(h, `/features/${f}/transactions`)) as any[]).find((t) => t.transactionType === 'Recurring Charge')
    for (const amount of ['3.33', '3.33', '3.34']) {
      const r = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'piece', lines: [{ transactionID: charge.id, amount }] })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    for (const s of await statements(h, `billingRunID=${feb.id}`)) {
      const back = s.lines.filter((l: any) => l.transactionType === 'Credit Note').map((l: any) => cents(l.commission))
      assert.equal(back, [-33, -34, -33], s.holder)
    }
    assert.equal(await earnedOn(h, [jan.id, feb.id]), { 'Alice Morgan': 0, 'Ben Carter': 0 })
  })

  test('a charge credited 3.35, then refunded the 6.65 left by a drop from its start: the refund takes back what the note left, 0.66', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'E-1', commissionHolder: 'Alice Morgan' })
    const f = await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage' })
    const jan = await bill(h, '2026-01-31')
    h.clock.set('2026-02-03T09:00:00Z')
    const [invoice] = await get(h, `/customers/${c}/invoices`)
    assert.is((await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', amount: '3.35' })).status, 201)
    await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-01', dateBillTo: '2025-12-31' })
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    const [alice] = await statements(h, `billingRunID=${feb.id}`)
    assert.equal(
      alice.lines.map((l: any) => [l.transactionType, l.basis, l.commission]),
      [
        ['Recurring Charge Refund', -6.65, -0.66],
        ['Credit Note', -3.35, -0.34],
      ],
    )
    assert.equal(await earnedOn(h, [jan.id, feb.id]), { 'Alice Morgan': 0 })
  })

  test('a charge cut 6.45 by a delta change from its start, refunded so in a run, then credited the 3.55 left: the note takes back what the refund left, 0.35, not 0.36', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'R-1', commissionHolder: 'Alice Morgan' })
    const f = await newFeature(h, c, {
      startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', serviceChargeCommission: '10', serviceChargeCommissionType: 'Percentage',
      commissionHolderID2: 'Ben Carter', serviceChargeCommission2: '1.00', serviceChargeCommissionType2: 'Fixed Amount',
    })
    const jan = await bill(h, '2026-01-31')
    const [invoice] = await get(h, `/customers/${c}/invoices`)
    const charge = ((await get(h, `/features/${f}/transactions`)) as any[]).find((t) => t.transactionType === 'Recurring Charge')
    // January's 10.00 stands at 3.55: February's run refunds 6.45 of it, and a note then credits the rest.
    h.clock.set('2026-02-03T09:00:00Z')
    await act(h, `/features/${f}`, 'changeRecurringCharge', { serviceCharge: '3.55', dateFrom: '2026-01-01', chargeChangeMode: 'delta' })
    h.clock.set('2026-02-28T09:00:00Z')
    const feb = await bill(h, '2026-02-28')
    h.clock.set('2026-03-03T09:00:00Z')
    const r = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', lines: [{ transactionID: charge.id, amount: '3.55' }] })
    assert.is(r.status, 201, JSON.stringify(r.body))
    h.clock.set('2026-03-31T09:00:00Z')
    const mar = await bill(h, '2026-03-31')
    const back = async (run: { id: string }) => {
      const out: Record<string, unknown[]> = {}
      for (const s of await statements(h, `billingRunID=${run.id}`)) out[s.holder] = s.lines.filter((l: any) => l.transactionType !== 'Recurring Charge').map((l: any) => [l.transactionType, l.basis, l.commission])
      return out
    }
    const refunded = [['Recurring Charge Adjustment Refund', -6.45, -0.65]]
    assert.equal(await back(feb), { 'Alice Morgan': refunded, 'Ben Carter': refunded })
    const credited = [['Credit Note', -3.55, -0.35]]
    assert.equal(await back(mar), { 'Alice Morgan': credited, 'Ben Carter': credited })
    assert.equal(await earnedOn(h, [jan.id, feb.id, mar.id]), { 'Alice Morgan': 0, 'Ben Carter': 0 })
  })

  test.run()
}
