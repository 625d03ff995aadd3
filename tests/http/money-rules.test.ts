import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogue } from '../../core/fields/catalogue.js'
import { getItem } from '../../core/resources/resources.js'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 17.6 through the API on every database: the worked examples of the third money audit
 * (issue 48) for write-offs, allocation and status, each amount computed by hand.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`money rules the audit pinned [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-01T10:00:00.000Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  const invoicesOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
  const post = async (h: Harness, c: string, body: Record<string, unknown>) => {
    const r = await h.request('POST', `/customers/${c}/transactions`, body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    return r.body
  }
  const notes = async (h: Harness, c: string, type: string) =>
    ((await h.request('GET', `/customers/${c}/transactions?transactionType=${encodeURIComponent(type)}`)).body as any[]).map((t) => [t.amount, t.VATAmount])
  const runJob = async (h: Harness, name: string) => {
    const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
    await scheduler.runNow(name)
    await scheduler.stop()
  }

  test('writeOffDebt carries the VAT share of what it writes off: 120.00 invoice, 60.00 paid → −50.00 net, −10.00 VAT', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    await post(h, c, { transactionType: 'Debit Note', amount: 100, transactionDate: '2026-01-01' })
    await bill(h, '2026-01-01')
    await post(h, c, { transactionType: 'Payment', amount: 60, transactionDate: '2026-01-10' })
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    const after = await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-01-31' })
    assert.is(after.balance, 0)
    assert.equal(await notes(h, c, 'Credit Note'), [[-50, -10]])
    assert.equal((await invoicesOf(h, c)).map((i) => i.status), ['Paid'])
  })

  test('writeOffDebt over two invoices rounds each share on its own', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    // 10.01 + 2.00 VAT = 12.01, and 10.01 + 2.00 = 12.01 again; 0.01 paid.
    await post(h, c, { transactionType: 'Debit Note', amount: 10.01, transactionDate: '2026-01-01' })
    await bill(h, '2026-01-01')
    await post(h, c, { transactionType: 'Debit Note', amount: 10.01, transactionDate: '2026-02-01' })
    await bill(h, '2026-02-01')
    await post(h, c, { transactionType: 'Payment', amount: 0.01, transactionDate: '2026-02-02' })
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-28' })
    await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-02-28' })
    // 12.00 × 2.00/12.01 = 1.998 → 2.00, and 12.01 × 2.00/12.01 = 2.00: VAT 4.00 of 24.01.
    assert.equal(await notes(h, c, 'Credit Note'), [[-20.01, -4]])
  })

  test('writeOffCredit of a plain over-payment carries no VAT, and the next run invoices it at no VAT', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    // A 120.00 invoice (20.00 of it VAT) paid with 170.00: 50.00 over-paid, none of it VAT.
    await post(h, c, { transactionType: 'Debit Note', amount: 100, transactionDate: '2026-01-01' })
    await bill(h, '2026-01-01')
    await post(h, c, { transactionType: 'Payment', amount: 170, transactionDate: '2026-01-05' })
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    const after = await act(h, `/customers/${c}`, 'writeOffCredit', { dateWriteoff: '2026-01-31' })
    assert.is(after.balance, 0)
    assert.equal(await notes(h, c, 'Debit Note'), [[100, 20], [50, 0]])
    await bill(h, '2026-02-01')
    assert.equal((await invoicesOf(h, c)).map((i) => [i.netAmount, i.VATAmount, i.status]), [[100, 20, 'Paid'], [50, 0, 'Paid']])
  })

  test('writeOffCredit of a credit invoice carries its VAT share', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    // A credit of 30.00 net (36.00 with VAT) invoiced, and 14.00 paid in: 50.00 credit, 6.00 of it VAT.
    await post(h, c, { transactionType: 'Credit Note', amount: -30, transactionDate: '2026-01-01' })
    await bill(h, '2026-01-01')
    await post(h, c, { transactionType: 'Payment', amount: 14, transactionDate: '2026-01-05' })
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-31' })
    await act(h, `/customers/${c}`, 'writeOffCredit', { dateWriteoff: '2026-01-31' })
    // A row per VAT rate (contract 16.4): the credit invoice's 30.00 + 6.00 at its rate, the 14.00 paid in at none.
    const rows = (await h.request('GET', `/customers/${c}/transactions?transactionType=Debit%20Note`)).body as any[]
    assert.equal(rows.map((t) => [t.amount, t.VATAmount, t.VATRate]), [[30, 6, 'Standard 20%'], [14, 0, null]])
  })

  test('allocation is final: a later invoice with an earlier due date never takes money off a Paid one', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 60 })
    await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', VATRate: 'Standard 20%' })
    await bill(h, '2026-01-01')
    await post(h, c, { transactionType: 'Payment', amount: 12, transactionDate: '2026-01-05' })
    const [first] = await invoicesOf(h, c)
    assert.equal([first.status, first.paidDate, first.dueDate], ['Paid', '2026-01-05', '2026-03-02'])
    const patched = await h.request('PATCH', `/customers/${c}`, { paymentTerms: 7 })
    assert.is(patched.status, 200)
    h.clock.set('2026-02-01T10:00:00Z')
    await bill(h, '2026-02-01')
    h.clock.set('2026-02-20T10:00:00Z')
    await runJob(h, 'invoice-overdue')
    const [one, two] = await invoicesOf(h, c)
    assert.equal([one.status, one.amountPaid, one.paidDate], ['Paid', 12, '2026-01-05'])
    assert.equal([two.dueDate, two.status, two.amountPaid, two.paidDate], ['2026-02-08', 'Overdue', 0, null])
    assert.is((await h.request('GET', `/customers/${c}`)).body.overdueAmount, 12)
    // A payment now pays the unpaid invoice, and allocating again changes nothing.
    await post(h, c, { transactionType: 'Payment', amount: 12, transactionDate: '2026-02-21' })
    assert.equal((await invoicesOf(h, c)).map((i) => [i.status, i.paidDate]), [['Paid', '2026-01-05'], ['Paid', '2026-02-21']])
  })
  test('status is read against today: overdue without any job, in the invoice, its filter, overdueAmount and creditAlerts', async ({ h }) => {
    h.clock.set('2026-01-01T10:00:00Z')
    const c = await newCustomer(h, { paymentTerms: 7, creditLimitOverdue: 5, accountNumber: 'READ-TODAY' })
    await newFeature(h, c, { serviceCharge: 10, startDate: '2026-01-01', VATRate: 'Standard 20%' })
    await bill(h, '2026-01-01')
    const [raised] = await invoicesOf(h, c)
    assert.equal([raised.status, raised.overdueDate], ['Unpaid', '2026-01-08'])
    const listed = async (status: string) => ((await h.request('GET', `/customers/${c}/invoices?status=${status}`)).body as any[]).map((i) => i.id)
    assert.equal(await listed('Unpaid'), [raised.id])
    // Still not overdue on its overdue date; overdue the day after, though no job has run.
    h.clock.set('2026-01-08T23:00:00Z')
    assert.is((await h.request('GET', `/invoices/${raised.id}`)).body.status, 'Unpaid')
    h.clock.set('2026-01-09T00:30:00Z')
    assert.is((await h.request('GET', `/invoices/${raised.id}`)).body.status, 'Overdue')
    assert.equal((await invoicesOf(h, c)).map((i) => i.status), ['Overdue'])
    assert.equal(await listed('Overdue'), [raised.id])
    assert.equal(await listed('Unpaid'), [])
    const customer = (await h.request('GET', `/customers/${c}`)).body
    assert.equal([customer.overdueAmount, customer.creditAlerts], [12, ['creditLimitOverdue']])
    const page = (await h.request('GET', '/customers?accountNumber=READ-TODAY')).body as any[]
    assert.equal(page.map((x) => [x.overdueAmount, x.creditAlerts]), [[12, ['creditLimitOverdue']]])
    // What the library's invoices.get reads: the same, with no scheduler anywhere.
    assert.is((await getItem(h.platform.context, catalogue.invoices, raised.id)).status, 'Overdue')
    // Paid: no longer overdue, and the alert goes with it.
    await post(h, c, { transactionType: 'Payment', amount: 12, transactionDate: '2026-01-09' })
    const paid = (await h.request('GET', `/customers/${c}`)).body
    assert.equal([paid.overdueAmount, paid.creditAlerts], [0, []])
    assert.equal(await listed('Paid'), [raised.id])
  })
  // The readings contract 17.6 keeps as built, a test each.
  test('kept: calendar months count month boundaries (last invoice 2024-01-20, run 2024-04-02: 3 months, due)', async ({ h }) => {
    h.clock.set('2024-01-20T10:00:00Z')
    const c = await newCustomer(h, { billingCycle: 'Quarterly' })
    await post(h, c, { transactionType: 'Debit Note', amount: 10, transactionDate: '2024-01-20' })
    await bill(h, '2024-01-20')
    await post(h, c, { transactionType: 'Debit Note', amount: 10, transactionDate: '2024-03-31' })
    h.clock.set('2024-03-31T10:00:00Z')
    await bill(h, '2024-03-31')
    h.clock.set('2024-04-02T10:00:00Z')
    await bill(h, '2024-04-02')
    assert.equal((await invoicesOf(h, c)).map((i) => i.invoiceDate), ['2024-01-20', '2024-04-02'])
  })

  test("kept: a zero-total invoice's paidDate is its invoiceDate", async ({ h }) => {
    h.clock.set('2026-03-01T10:00:00Z')
    const c = await newCustomer(h, { emptyInvoiceAction: 'Send' })
    await bill(h, '2026-03-01')
    assert.equal((await invoicesOf(h, c)).map((i) => [i.totalAmount, i.paidDate, i.status]), [[0, '2026-03-01', 'Paid']])
  })

  test("kept: low detection on Call Charges counts a number's call-charge minimum", async ({ h }) => {
    h.clock.set('2026-03-01T10:00:00Z')
    const c = await newCustomer(h, { lowInvoiceDetect: 'Call Charges', lowInvoiceDetectValue: 5, lowInvoiceAction: 'Carry Forward' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0777', lowInvoiceActionValue: 6 })).body.id
    await post(h, c, { transactionType: 'Call Charges', amount: 1, transactionDate: '2026-02-20', numberID: n })
    await bill(h, '2026-03-01')
    // 1.00 of calls topped up to 6.00: not below 5.00, so raised, not carried forward.
    assert.equal((await invoicesOf(h, c)).map((i) => i.netAmount), [6])
  })

  test("kept: annual-increase dates before a feature's start are skipped", async ({ h }) => {
    h.clock.set('2026-03-01T10:00:00Z')
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { serviceCharge: 10, startDate: '2026-03-01', annualIncreaseReferenceDate: '2025-04-01', annualIncreaseProfile: 'Fixed 5%' })
    h.clock.set('2026-04-02T10:00:00Z')
    await runJob(h, 'annual-increases')
    const got = (await h.request('GET', `/features/${f}`)).body
    // 1 Apr 2025 is before the start: only 1 Apr 2026 raises, 10.00 → 10.50.
    assert.equal([got.serviceCharge, got.annualIncreaseReferenceDate, got.lastUpdatedDate], [10.5, '2027-04-01', '2026-04-01'])
  })
  test.run()
}
