import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const invoicesOf = async (h: Harness, c: string, query = '') => (await h.request('GET', `/customers/${c}/invoices?limit=1000${query}`)).body as any[]
const pay = async (h: Harness, c: string, amount: number | string, transactionDate: string, transactionType = 'Payment') => {
  const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType, amount, transactionDate })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}
/** The events of `type` whose data is the item `id`, in order, as the feed lists them. */
const eventsOf = async (h: Harness, type: string, id: string) =>
  ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === type && e.data.id === id)
const state = (i: any) => [i.totalAmount, i.amountPaid, i.amountOutstanding, i.paidDate, i.status]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoicing: payments, allocation, status and overdue [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('payments are never invoice lines; allocated oldest due date first; leftover credit pays the next invoice', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 14, paymentGraceDays: 2 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    await bill(h, '2026-02-28')
    let [jan, feb] = await invoicesOf(h, c)
    assert.equal([jan.dueDate, jan.overdueDate, jan.status], ['2026-02-14', '2026-02-16', 'Unpaid'])
    const p = await pay(h, c, 150, '2026-03-01')
    ;[jan, feb] = await invoicesOf(h, c)
    assert.equal(state(jan), [100, 100, 0, '2026-03-01', 'Paid'])
    assert.equal(state(feb), [100, 50, 50, null, 'Unpaid'])
    assert.equal((await eventsOf(h, 'invoice.paid', jan.id)).map((e) => state(e.data)), [state(jan)], 'invoice.paid carries the invoice as it reads paid')
    assert.equal(await eventsOf(h, 'invoice.paid', feb.id), [], 'part paid is not paid')
    await pay(h, c, '80.00', '2026-03-05')
    ;[jan, feb] = await invoicesOf(h, c)
    assert.equal(state(feb), [100, 100, 0, '2026-03-05', 'Paid'], 'the second payment completes February')
    const paidBy = await h.platform.context.store.receivables.invoicePayments(feb.id)
    assert.equal(paidBy.map((p) => [p.date, Number(p.amount) / 10_000]), [['2026-03-01', 50], ['2026-03-05', 50]], 'what paid it, for its document')
    await bill(h, '2026-03-31')
    const all = await invoicesOf(h, c)
    assert.is(all.length, 3)
    assert.equal(state(all[2]), [100, 30, 70, null, 'Unpaid'], 'the 30.00 held pays the next invoice')
    assert.not.ok(all.some((i) => i.transactionIDs.includes(p.id)), 'a payment is on no invoice')
    const payment = (await h.request('GET', `/transactions/${p.id}`)).body
    assert.equal([payment.invoiceID, payment.approved], [null, false])
    assert.is((await h.request('GET', `/customers/${c}`)).body.balance, 70)
  })

  test('overdue after the overdue date; the status filter; customers show overdueAmount', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 10, paymentMethod: 'Direct Debit' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '40.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    const [inv] = await invoicesOf(h, c)
    assert.equal([inv.dueDate, inv.overdueDate], ['2026-02-10', '2026-02-13'], 'Direct Debit grace days from the presets map')
    h.clock.set('2026-02-13T23:00:00Z')
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('invoice-overdue')
    assert.is((await invoicesOf(h, c))[0].status, 'Unpaid', 'not overdue on its overdue date')
    h.clock.set('2026-02-14T00:10:00Z')
    await scheduler.runNow('invoice-overdue')
    await scheduler.stop()
    assert.is((await invoicesOf(h, c))[0].status, 'Overdue')
    assert.equal((await invoicesOf(h, c, '&status=Overdue')).map((i) => i.id), [inv.id])
    assert.equal(await invoicesOf(h, c, '&status=Paid'), [])
    assert.ok((await h.request('GET', '/invoices?status=Overdue')).body.some((i: any) => i.id === inv.id))
    assert.is((await h.request('GET', '/invoices?status=Late')).body.error_code, 400103)
    assert.is((await h.request('GET', `/customers/${c}`)).body.overdueAmount, 40)
    await pay(h, c, 15, '2026-02-14')
    assert.is((await h.request('GET', `/customers/${c}`)).body.overdueAmount, 25)
    assert.equal(state((await invoicesOf(h, c))[0]), [40, 15, 25, null, 'Overdue'])
    const overdue = await eventsOf(h, 'invoice.overdue', inv.id)
    assert.equal(overdue.map((e) => [e.data.status, e.data.amountOutstanding]), [['Overdue', 40]], 'announced once, when the job found it overdue')
    await pay(h, c, 25, '2026-02-15')
    assert.equal((await eventsOf(h, 'invoice.paid', inv.id)).map((e) => e.data.status), ['Paid'])
    assert.is((await eventsOf(h, 'invoice.overdue', inv.id)).length, 1)
  })

  test('an invoice overdue as it is raised counts in the overdue amount at once', async ({ h }) => {
    h.clock.set('2026-03-01T09:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 7 })
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 12, transactionDate: '2026-01-20' })
    await bill(h, '2026-01-31')
    assert.is((await invoicesOf(h, c))[0].status, 'Overdue')
    assert.is((await h.request('GET', `/customers/${c}`)).body.overdueAmount, 12)
  })

  test('an invoice raised already overdue is announced invoice.overdue once, after its invoice.raised; the job does not announce it again', async ({ h }) => {
    h.clock.set('2026-03-10T09:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 14 })
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31') // a late run: overdue since 2026-02-14
    await bill(h, '2026-02-28') // due 2026-03-14: not overdue yet
    const [jan, feb] = await invoicesOf(h, c)
    assert.equal([jan.status, feb.status], ['Overdue', 'Unpaid'])
    const feed = async (id: string) =>
      ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type.startsWith('invoice.') && e.data.id === id)
    const raised = await feed(jan.id)
    assert.equal(raised.map((e) => [e.type, e.data.status, e.data.amountOutstanding]), [['invoice.raised', 'Overdue', 100], ['invoice.overdue', 'Overdue', 100]])
    const jobs = async (...names: string[]) => {
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      for (const name of names) await scheduler.runNow(name)
      await scheduler.stop()
    }
    await jobs('invoice-overdue', 'dunning')
    // February becomes overdue: the job takes the customer again, and announces February alone.
    h.clock.set('2026-03-20T09:00:00Z')
    await jobs('invoice-overdue', 'dunning')
    assert.is((await invoicesOf(h, c))[1].status, 'Overdue')
    assert.equal((await feed(jan.id)).map((e) => e.type), ['invoice.raised', 'invoice.overdue'], 'announced once')
    assert.equal((await feed(feb.id)).map((e) => e.type), ['invoice.raised', 'invoice.overdue'])
  })

  test('an invoice raised already overdue that held credit pays in the same step is announced invoice.paid, never invoice.overdue; one it pays in part, overdue after it', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const [full, part, none] = [await newCustomer(h, { paymentTerms: 14 }), await newCustomer(h, { paymentTerms: 14 }), await newCustomer(h, { paymentTerms: 14 })]
    for (const c of [full, part, none]) await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '100.00', serviceChargeInterval: 'Calendar Monthly' })
    await pay(h, full, 500, '2026-01-05')
    await pay(h, part, 30, '2026-01-05')
    h.clock.set('2026-03-10T09:00:00Z')
    await bill(h, '2026-01-31') // a late run: overdue since 2026-02-14, its credit allocated in the step that raises it
    const feed = async (c: string) => {
      const [invoice] = await invoicesOf(h, c)
      const events = ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type.startsWith('invoice.') && e.data.id === invoice.id)
      return events.map((e) => [e.type, e.data.status, e.data.amountOutstanding])
    }
    assert.equal(await feed(full), [['invoice.raised', 'Overdue', 100], ['invoice.paid', 'Paid', 0]], 'paid by held credit: never chased')
    assert.equal(await feed(part), [['invoice.raised', 'Overdue', 100], ['invoice.overdue', 'Overdue', 70]], 'announced as it reads after the allocation')
    assert.equal(await feed(none), [['invoice.raised', 'Overdue', 100], ['invoice.overdue', 'Overdue', 100]])
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow('invoice-overdue')
    await scheduler.stop()
    assert.equal((await feed(full)).map((e) => e[0]), ['invoice.raised', 'invoice.paid'], 'nor by the job')
  })

  test('a credit invoice is Paid and its credit pays the next one; a write-off pays the invoices it writes off', async ({ h }) => {
    h.clock.set('2026-01-05T09:00:00Z')
    const c = await newCustomer(h)
    await pay(h, c, 20, '2026-01-10', 'Credit Note')
    await bill(h, '2026-01-31')
    const [credit] = await invoicesOf(h, c)
    assert.equal([credit.totalAmount, credit.status, credit.amountOutstanding], [-20, 'Paid', 0])
    await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount: 50, transactionDate: '2026-02-10' })
    await bill(h, '2026-02-28')
    const [, debit] = await invoicesOf(h, c)
    assert.equal(state(debit), [50, 20, 30, null, 'Unpaid'])
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-01' })
    const w = await h.request('POST', `/customers/${c}?action=writeOffDebt`, { dateWriteoff: '2026-03-02' })
    assert.is(w.status, 200, JSON.stringify(w.body))
    assert.equal(state((await invoicesOf(h, c))[1]), [50, 50, 0, '2026-03-02', 'Paid'])
  })

  test.run()
}
