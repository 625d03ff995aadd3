import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * A run's transactionCutoffDate (contract 9.5): its recurring and connection charges go on the
 * invoice through the cutoff, every other transaction through the transactionCutoffDate, earlier
 * or later; calls after an earlier one are left, whole, to the next run. A final bill takes all.
 */
const header = 'callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier'
const upload = async (h: Harness, ...rows: string[]) => {
  const r = await h.request('POST', '/usageFiles?name=calls.csv', undefined, { raw: [header, ...rows].join('\n') + '\n', headers: { 'content-type': 'text/csv' } })
  assert.is(r.status, 201, JSON.stringify(r.body))
}
const post = async (h: Harness, customer: string, transactionDate: string, amount: number) => {
  const r = await h.request('POST', `/customers/${customer}/transactions`, { transactionType: 'Debit Note', amount, transactionDate })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id as string
}
const invoicesOf = async (h: Harness, customer: string) => (await h.request('GET', `/customers/${customer}/invoices`)).body as any[]
const transaction = async (h: Harness, id: string) => (await h.request('GET', `/transactions/${id}`)).body
const callCharges = async (h: Harness, customer: string) =>
  (await h.request('GET', `/customers/${customer}/transactions?transactionType=Call%20Charges`)).body as any[]

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`billing run transactionCutoffDate [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-12-01T10:00:00.000Z' })
    const t = await ctx.h.request('POST', '/tariffs', { name: 'Cutoff calls', baseRoundSeconds: 60 })
    await ctx.h.request('POST', `/tariffs/${t.body.id}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05' })
  })
  test.after(async (ctx) => ctx.h.close())

  // The tests bill all customers, each a later month than the one before.

  test('an earlier transactionCutoffDate: charges through the cutoff, other transactions through it, the rest on the next invoice', async ({ h }) => {
    const c = await newCustomer(h)
    await newFeature(h, c, { startDate: '2026-01-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    // Charged from after the transactionCutoffDate, still through the cutoff: Jan 20-31 is 31.00 × 12/31.
    await newFeature(h, c, { startDate: '2026-01-20', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly', connectionCharge: 5 })
    const early = await post(h, c, '2026-01-10', 1)
    const late = await post(h, c, '2026-01-20', 2)
    await bill(h, '2026-01-31', { transactionCutoffDate: '2026-01-15' })
    const [first] = await invoicesOf(h, c)
    const charges = ((await h.request('GET', `/customers/${c}/transactions`)).body as any[]).filter((t) => t.transactionType !== 'Debit Note')
    assert.equal(
      charges.map((t) => [t.transactionType, t.transactionDate, t.amount, t.invoiceID]),
      [
        ['Recurring Charge', '2026-01-01', 10, first.id],
        ['Connection Charge', '2026-01-20', 5, first.id],
        ['Recurring Charge', '2026-01-20', 12, first.id],
      ],
      "January's charges invoiced as before",
    )
    assert.equal([...first.transactionIDs].sort(), [...charges.map((t) => t.id), early].sort())
    assert.is(first.netAmount, 28)
    const left = await transaction(h, late)
    assert.equal([left.approved, left.invoiceID], [false, null], 'the Debit Note after the transactionCutoffDate waits')

    await bill(h, '2026-02-28')
    const second = (await invoicesOf(h, c)).find((i) => i.id !== first.id)
    assert.ok(second.transactionIDs.includes(late))
    assert.is(second.netAmount, 10 + 31 + 2, "February's charges and the Debit Note left by the first run")
    assert.equal([(await transaction(h, late)).approved, (await transaction(h, early)).invoiceID], [true, first.id])
  })

  test('calls after an earlier transactionCutoffDate are billed and invoiced by the next run, each once', async ({ h }) => {
    const c = await newCustomer(h, { defaultNationalTariff: 'Cutoff calls' })
    const digits = '01632981001'
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: digits })).body.id
    const call = (day: string) => `${digits},01632960999,2026-03-${day}T10:00:00Z,61,NAT,national,Gamma`
    await upload(h, call('10'), call('20'))
    const callsOf = async () => ((await h.request('GET', `/numbers/${number}/calls`)).body as any[]).map((x) => [x.startTime.slice(0, 10), x.transactionID])

    await bill(h, '2026-03-31', { transactionCutoffDate: '2026-03-15' })
    const [row] = await callCharges(h, c)
    const [first] = await invoicesOf(h, c)
    assert.equal([row.quantity, row.amount, row.dateFrom, row.dateTo, row.transactionDate, row.invoiceID], [1, 0.1, '2026-03-10', '2026-03-10', '2026-03-15', first.id])
    assert.is(first.netAmount, 0.1)
    assert.equal(await callsOf(), [['2026-03-10', row.id], ['2026-03-20', null]])

    await bill(h, '2026-04-30')
    await bill(h, '2026-05-31')
    const rows = await callCharges(h, c)
    assert.is(rows.length, 2, 'each call billed once')
    const next = rows.find((t) => t.id !== row.id)
    const second = (await invoicesOf(h, c)).find((i) => i.id !== first.id)
    assert.equal([next.quantity, next.amount, next.dateFrom, next.invoiceID], [1, 0.1, '2026-03-20', second.id])
    assert.is(second.netAmount, 0.1)
    assert.equal(await callsOf(), [['2026-03-10', row.id], ['2026-03-20', next.id]])
    assert.is((await invoicesOf(h, c)).length, 2)
  })

  test('a later transactionCutoffDate invoices other transactions past the cutoff, not charges or calls', async ({ h }) => {
    const c = await newCustomer(h, { defaultNationalTariff: 'Cutoff calls' })
    await newFeature(h, c, { startDate: '2026-06-01', serviceCharge: '10.00', serviceChargeInterval: 'Calendar Monthly' })
    const digits = '01632981002'
    const number = (await h.request('POST', `/customers/${c}/numbers`, { number: digits })).body.id
    await upload(h, `${digits},01632960999,2026-07-05T10:00:00Z,61,NAT,national,Gamma`)
    const within = await post(h, c, '2026-07-05', 1)
    const after = await post(h, c, '2026-07-20', 2)
    await bill(h, '2026-06-30', { transactionCutoffDate: '2026-07-10' })
    const [first] = await invoicesOf(h, c)
    assert.ok(first.transactionIDs.includes(within))
    assert.is(first.netAmount, 11, "June's charge and the Debit Note through the transactionCutoffDate")
    assert.is((await transaction(h, after)).invoiceID, null)
    assert.equal(await callCharges(h, c), [], 'calls are billed through the cutoff, as before')
    assert.is(((await h.request('GET', `/numbers/${number}/calls`)).body as any[])[0].transactionID, null)
  })

  test('charges a discarded review run left after the cutoff wait for their own run, whatever the transactionCutoffDate', async ({ h }) => {
    const c = await newCustomer(h)
    const f = await newFeature(h, c, { startDate: '2026-10-01', serviceCharge: '30.00', serviceChargeInterval: 'Calendar Monthly' })
    const review = await bill(h, '2026-12-31', { review: true }).catch(() => null)
    const drafted = review ?? ((await h.request('GET', '/billingRuns?limit=1000')).body as any[]).at(-1)
    assert.is((await h.request('PATCH', `/billingRuns/${drafted.id}`, { status: 'Discarded' })).status, 200)
    await bill(h, '2026-10-31', { transactionCutoffDate: '2026-12-31' })
    const [invoice] = await invoicesOf(h, c)
    assert.is(invoice.netAmount, 30, 'October only: November and December are charges after the cutoff')
    const rows = (await h.request('GET', `/features/${f}/transactions`)).body as any[]
    assert.equal(rows.map((r) => [r.dateFrom, r.invoiceID === invoice.id]), [['2026-10-01', true], ['2026-11-01', false], ['2026-12-01', false]])
  })

  test('a customer in final bill is invoiced through its final-bill date for everything', async ({ h }) => {
    const c = await newCustomer(h, { defaultNationalTariff: 'Cutoff calls' })
    await newFeature(h, c, { startDate: '2026-08-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    const digits = '01632981003'
    await h.request('POST', `/customers/${c}/numbers`, { number: digits })
    await upload(h, `${digits},01632960999,2026-08-20T10:00:00Z,61,NAT,national,Gamma`)
    const late = await post(h, c, '2026-08-20', 2)
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-08-31' })
    await bill(h, '2026-08-31', { transactionCutoffDate: '2026-08-15' })
    const [invoice] = await invoicesOf(h, c)
    assert.ok(invoice.transactionIDs.includes(late))
    const [row] = await callCharges(h, c)
    assert.equal([row.quantity, row.invoiceID], [1, invoice.id])
    assert.is(invoice.netAmount, 31 + 2 + 0.1)
  })

  test.run()
}
