import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { credit, lastInvoice } from '../support/credit-notes.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 16.4 with 17.6 on every database: a `standard` write-off is a row per VAT rate, so the
 * journal shows each rate's net and VAT (a VAT return reverses each rate's tax on its own).
 * Each case: an invoice of 10.00 at Standard 20% and 10.00 at Reduced 5%, 22.50 in all.
 */
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`write-offs per VAT rate [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  const post = async (h: Harness, c: string, body: Record<string, unknown>) => {
    const r = await h.request('POST', `/customers/${c}/transactions`, body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    return r.body.id as string
  }
  const invoiced = async (h: Harness) => {
    const c = await newCustomer(h, { accountNumber: `WR-${Math.random().toString(36).slice(2, 8)}` })
    const lines = [
      await post(h, c, { transactionType: 'Installation', amount: '10.00', VATRate: 'Standard 20%', transactionDate: '2026-01-05' }),
      await post(h, c, { transactionType: 'Installation', amount: '10.00', VATRate: 'Reduced 5%', transactionDate: '2026-01-05' }),
    ]
    await bill(h, '2026-01-05')
    const invoice = await lastInvoice(h, c)
    assert.equal([invoice.netAmount, invoice.VATAmount, invoice.totalAmount], [20, 2.5, 22.5])
    return { c, lines, invoice }
  }
  const journalOf = async (h: Harness, c: string, documentType: string) =>
    ((await h.request('GET', '/journal?from=2026-02-01&to=2026-02-28')).body.lines as any[])
      .filter((l) => l.customerID === c && l.documentType === documentType)
      .map((l) => [l.accountCode, l.VATRate, l.net, l.VAT])

  test('writeOffDebt: a Credit Note row per VAT rate, and the journal a line per rate', async ({ h }) => {
    const { c } = await invoiced(h)
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-01' })
    assert.is((await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-02-02' })).balance, 0)
    const rows = (await h.request('GET', `/customers/${c}/transactions?transactionType=Credit%20Note`)).body as any[]
    assert.equal(rows.map((t) => [t.amount, t.VATAmount, t.VATRate]), [[-10, -2, 'Standard 20%'], [-10, -0.5, 'Reduced 5%']])
    assert.equal(await journalOf(h, c, 'writeOff'), [['Credit Note', 'Standard 20%', -10, -2], ['Credit Note', 'Reduced 5%', -10, -0.5]])
    assert.equal((await lastInvoice(h, c)).status, 'Paid')
  })

  test('writeOffCredit of a credit note: a Debit Note row per VAT rate, invoiced by the next run a line per rate', async ({ h }) => {
    const { c, lines, invoice } = await invoiced(h)
    await post(h, c, { transactionType: 'Payment', amount: '22.50', transactionDate: '2026-01-10' })
    const note = await credit(h, invoice.id, { reason: 'Returned', lines: lines.map((transactionID) => ({ transactionID })) })
    assert.is(note.status, 201, JSON.stringify(note.body))
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-01' })
    assert.is((await act(h, `/customers/${c}`, 'writeOffCredit', { dateWriteoff: '2026-02-02' })).balance, 0)
    const rows = (await h.request('GET', `/customers/${c}/transactions?transactionType=Debit%20Note`)).body as any[]
    assert.equal(rows.map((t) => [t.amount, t.VATAmount, t.VATRate]), [[10, 2, 'Standard 20%'], [10, 0.5, 'Reduced 5%']])
    h.clock.set('2026-02-28T09:00:00Z')
    await bill(h, '2026-02-28')
    const next = await lastInvoice(h, c)
    assert.equal([next.netAmount, next.VATAmount, next.status], [20, 2.5, 'Paid'])
    assert.equal(await journalOf(h, c, 'invoice'), [['Debit Note', 'Reduced 5%', 10, 0.5], ['Debit Note', 'Standard 20%', 10, 2]])
  })

  test('writeOffDebt with refunds not invoiced yet (a backdated drop): only the VAT still owed, and the account ends at zero net and VAT', async ({ h }) => {
    h.clock.set('2026-01-31T10:00:00Z')
    const c = await newCustomer(h, { accountNumber: 'WR-REFUND', VATRate: 'Standard 20%' })
    await newFeature(h, c, { featureType: 'Support', startDate: '2026-01-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-01-31')
    assert.is((await lastInvoice(h, c)).totalAmount, 37.2)
    h.clock.set('2026-02-02T10:00:00Z')
    // The drop refunds January (−31.00, −6.20 VAT) and charges 1–10 January (10.00, 2.00 VAT), on no invoice yet.
    assert.is((await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })).balance, 12)
    assert.is((await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-02-02' })).balance, 0)
    const notes = (await h.request('GET', `/customers/${c}/transactions?transactionType=Credit%20Note`)).body as any[]
    assert.equal(notes.map((t) => [t.amount, t.VATAmount, t.VATRate]), [[-10, -2, 'Standard 20%']])
    h.clock.set('2026-02-28T10:00:00Z')
    await bill(h, '2026-02-28')
    const rows = (await h.request('GET', `/customers/${c}/transactions?limit=1000`)).body as any[]
    const pence = (key: 'amount' | 'VATAmount') => rows.reduce((s, t) => s + Math.round((t[key] ?? 0) * 100), 0)
    assert.equal([pence('amount'), pence('VATAmount')], [0, 0], 'no VAT relieved beyond what was charged')
  })

  test('vat_exempt stays one row at no rate, with no VAT', async ({ h }) => {
    const { c } = await invoiced(h)
    await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-02-01' })
    await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-02-02', vatTreatment: 'vat_exempt' })
    assert.equal(await journalOf(h, c, 'writeOff'), [['Credit Note', null, -22.5, 0]])
  })

  test.run()
}
