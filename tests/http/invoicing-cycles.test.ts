import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const invoicesOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
const unapproved = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/transactions?approved=false`)).body as any[]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoicing: billing cycles and payment terms [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('a quarterly customer is invoiced every third month; its monthly charges wait unapproved; terms in months clamp', async ({ h }) => {
    const q = await newCustomer(h, { billingCycle: 'Quarterly', paymentTerms: 1, paymentTermsType: 'Months' })
    const m = await newCustomer(h, { paymentTerms: 14 })
    for (const c of [q, m]) await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31', { dueDate: '2026-02-20' })
    await bill(h, '2026-02-28', { dueDate: '2026-03-20' })
    await bill(h, '2026-03-31', { dueDate: '2026-04-20' })
    assert.equal((await invoicesOf(h, q)).map((i) => [i.invoiceDate, i.dueDate, i.totalAmount]), [['2026-01-31', '2026-02-28', 10]], 'first invoice at once, then waits')
    assert.equal((await unapproved(h, q)).map((t) => [t.dateFrom, t.amount]), [['2026-02-01', 10], ['2026-03-01', 10]], 'charged but unapproved')
    assert.equal((await invoicesOf(h, m)).map((i) => [i.invoiceDate, i.dueDate]), [
      ['2026-01-31', '2026-02-14'],
      ['2026-02-28', '2026-03-14'],
      ['2026-03-31', '2026-04-14'],
    ], 'monthly every run, 14 days after the invoice date')
    await bill(h, '2026-04-30', { dueDate: '2026-05-20' })
    const qs = await invoicesOf(h, q)
    assert.equal(qs.map((i) => [i.invoiceDate, i.dueDate, i.totalAmount]), [['2026-01-31', '2026-02-28', 10], ['2026-04-30', '2026-05-30', 30]])
    assert.is(qs[1].transactionIDs.length, 3, 'February, March and April together')
    assert.equal(await unapproved(h, q), [])
  })

  test('a customer in final bill is invoiced whatever its cycle', async ({ h }) => {
    const a = await newCustomer(h, { billingCycle: 'Annually' })
    await newFeature(h, a, { startDate: '2026-01-01', serviceCharge: '5.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    await bill(h, '2026-02-28')
    assert.is((await invoicesOf(h, a)).length, 1)
    await act(h, `/customers/${a}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-03-15' })
    await bill(h, '2026-03-31')
    const all = await invoicesOf(h, a)
    assert.is(all.length, 2, 'the final invoice is raised in the next run')
    assert.is(all[1].invoiceDate, '2026-03-31')
    assert.equal(await unapproved(h, a), [])
  })

  test('payment-terms fields refuse bad values; their presets are served', async ({ h }) => {
    for (const body of [{ billingCycle: 'Weekly' }, { paymentTermsType: 'Weeks' }, { paymentTerms: -1 }, { paymentTerms: 1.5 }, { paymentGraceDays: -3 }]) {
      const r = await h.request('POST', '/customers', body)
      assert.is(r.body.error_code, 400101, JSON.stringify(body))
    }
    const presets = (await h.request('GET', '/presets/customers')).body
    assert.equal(presets.billingCycle, ['Monthly', 'Quarterly', 'Annually'])
    assert.equal(presets.paymentTermsType, ['Days', 'Days after month end', 'Months'])
  })

  test.run()
}
