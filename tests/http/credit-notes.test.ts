import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { sequenceOf } from '../../core/numbering/invoice-number.js'
import { act, bill, newCustomer } from '../support/billing.js'
import { balanceOf, credit, lastInvoice, stored } from '../support/credit-notes.js'
import { openHarness, type Harness } from '../support/harness.js'
import { pdfLines } from '../support/pdf-text.js'
import { activeTargets } from '../support/targets.js'

const charge = async (h: Harness, c: string, transactionType: string, amount: string, VATRate: string) => {
  const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType, amount, VATRate, description: `${transactionType} ${amount}` })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body.id as string
}
const invoice = async (h: Harness, id: string) => (await h.request('GET', `/invoices/${id}`)).body
const linesOf = async (h: Harness, note: any) => Promise.all(note.transactionIDs.map(async (id: string) => (await h.request('GET', `/transactions/${id}`)).body))

for (const target of activeTargets()) {
  const test = suite<{ h: Harness; c: string; inv: any; ids: string[] }>(`credit notes and refunds [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-03-02T09:00:00Z' })
    const h = ctx.h
    // Three lines at two VAT rates: A 10.00 and B 20.00 at 20%, C 15.00 at 5%. Net 45.00, VAT 2.00 + 4.00 + 0.75.
    ctx.c = await newCustomer(h, { paymentTerms: 14 })
    ctx.ids = [await charge(h, ctx.c, 'Installation', '10.00', 'Standard 20%'), await charge(h, ctx.c, 'Equipment Sale', '20.00', 'Standard 20%'), await charge(h, ctx.c, 'Installation', '15.00', 'Reduced 5%')]
    await bill(h, '2026-03-02')
    ctx.inv = await lastInvoice(h, ctx.c)
    assert.equal([ctx.inv.netAmount, ctx.inv.VATAmount, ctx.inv.totalAmount], [45, 6.75, 51.75])
  })
  test.after(async (ctx) => ctx.h.close())

  test('by amount: 10.00 spread pro rata by net, the penny left over to the line that lost most in rounding down', async ({ h, c, inv, ids: [a, b, cc] }) => {
    const r = await credit(h, inv.id, { reason: 'Goodwill', amount: '10.00' })
    assert.is(r.status, 201, JSON.stringify(r.body))
    const note = r.body
    assert.is(r.headers.get('location'), `/backend/api/v1/creditNotes/${note.id}`)
    // Exact shares 2.2222, 4.4444, 3.3333: rounded down 2.22, 4.44, 3.33 = 9.99; B lost the most (0.44p), so B takes the penny.
    // VAT at each line's rate: 20% of 2.22 = 0.444 → 0.44; 20% of 4.45 = 0.89; 5% of 3.33 = 0.1665 → 0.17.
    const lines = await linesOf(h, note)
    assert.equal(lines.map((t) => [t.creditedTransactionID, t.transactionType, t.amount, t.VATAmount, t.VATRate]), [
      [a, 'Credit Note', -2.22, -0.44, 'Standard 20%'],
      [b, 'Credit Note', -4.45, -0.89, 'Standard 20%'],
      [cc, 'Credit Note', -3.33, -0.17, 'Reduced 5%'],
    ])
    assert.equal([note.netAmount, note.VATAmount, note.totalAmount, note.invoiceID, note.customerID, note.reason, note.date], [-10, -1.5, -11.5, inv.id, c, 'Goodwill', '2026-03-02'])
    assert.ok(sequenceOf('CN-{seq:6}', note.creditNoteNumber) !== null, note.creditNoteNumber)
    // Allocated to its invoice first: 51.75 - 11.50 = 40.25 outstanding.
    const after = await invoice(h, inv.id)
    assert.equal([after.amountPaid, after.amountOutstanding, after.status], [11.5, 40.25, 'Unpaid'])
    assert.is(await balanceOf(h, c), 40.25)
    const events = ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'credit_note.issued')
    assert.equal(events.map((e) => [e.data.id, e.data.totalAmount]), [[note.id, -11.5]])
    const history = (await h.request('GET', `/creditNotes/${note.id}/history`)).body as any[]
    assert.equal(history.map((e) => e.action), ['create'])
  })

  test('by lines: the rest of C (its VAT completes exactly) and 1.00 of A; numbers follow on with no gap', async ({ h, c, inv, ids: [a, , cc] }) => {
    const first = (await h.request('GET', `/invoices/${inv.id}/creditNotes`)).body[0]
    const r = await credit(h, inv.id, { reason: 'Wrong rate', lines: [{ transactionID: cc }, { transactionID: a, amount: 1 }] })
    assert.is(r.status, 201, JSON.stringify(r.body))
    // C: 15.00 - 3.33 = 11.67 left; its VAT 0.75 in all less the 0.17 credited = 0.58.
    // A: 1.00 more makes 3.22 credited, VAT 20% of 3.22 = 0.644 → 0.64, less 0.44 = 0.20.
    assert.equal((await linesOf(h, r.body)).map((t) => [t.creditedTransactionID, t.amount, t.VATAmount]), [
      [cc, -11.67, -0.58],
      [a, -1, -0.2],
    ])
    assert.equal([r.body.netAmount, r.body.VATAmount, r.body.totalAmount], [-12.67, -0.78, -13.45])
    assert.is(sequenceOf('CN-{seq:6}', r.body.creditNoteNumber), sequenceOf('CN-{seq:6}', first.creditNoteNumber)! + 1n)
    assert.equal((await invoice(h, inv.id)).amountOutstanding, 26.8)
    assert.is(await balanceOf(h, c), 26.8)
  })

  test('bad input is 400 naming the field, and nothing is written', async ({ h, c, inv, ids: [a, , cc] }) => {
    const before = await stored(h)
    const other = await newCustomer(h)
    const foreign = await charge(h, other, 'Installation', '5.00', 'Standard 20%')
    await bill(h, '2026-03-03')
    const otherInvoice = await lastInvoice(h, other)
    const base = await stored(h)
    assert.is(base[0], before[0])
    const refused = async (body: unknown, field: string, code = 400101) => {
      const r = await credit(h, inv.id, body)
      assert.equal([r.status, r.body.error_code], [400, code], JSON.stringify(r.body))
      assert.match(r.body.error, field)
      return r.body
    }
    await refused({ reason: 'x', lines: [{ transactionID: foreign }] }, 'lines[0].transactionID')
    const line = await refused({ reason: 'x', lines: [{ transactionID: a, amount: '6.79' }] }, 'lines[0].amount') // 10.00 - 2.22 - 1.00 = 6.78 left
    // Money in the messages as the API writes it, to the penny.
    assert.equal([line.error, line.hint], [`Field "lines[0].amount" is 6.79, more than the 6.78 left to credit on line ${a}`, 'Give at most 6.78.'])
    await refused({ reason: 'x', lines: [{ transactionID: cc }] }, 'lines[0].transactionID') // nothing left of C
    await refused({ reason: 'x', lines: [{ transactionID: a, amount: 0 }] }, 'lines[0].amount')
    await refused({ reason: 'x', lines: [{ transactionID: a, amount: '-1.00' }] }, 'lines[0].amount')
    await refused({ reason: 'x', lines: [{ transactionID: a }, { transactionID: a }] }, 'lines[1].transactionID')
    const over = await refused({ reason: 'x', amount: '22.34' }, 'amount') // 6.78 + 15.55 + 0 = 22.33 left
    assert.equal([over.error, over.hint], ['Field "amount" of credit note is 22.34, more than the 22.33 left to credit on the invoice', 'Give at most 22.33.'])
    await refused({ reason: 'x', amount: 0 }, 'amount')
    await refused({ reason: 'x', amount: -3 }, 'amount')
    await refused({ reason: 'x', amount: '1.00001' }, 'amount')
    await refused({ amount: '1.00' }, 'reason')
    await refused({ reason: 'x', amount: '1.00', lines: [] }, 'lines')
    await refused({ reason: 'x', amount: '1.00', date: '2026-01-01' }, 'date')
    await refused({ reason: 'x', lines: [] }, 'lines')
    assert.equal(await stored(h), base, 'nothing written')
    // Crediting another customer's invoice line through its own invoice works; a 404 for no invoice.
    assert.is((await credit(h, '999999', { reason: 'x', amount: 1 })).status, 404)
    assert.is((await credit(h, otherInvoice.id, { reason: 'x', lines: [{ transactionID: a }] })).body.error_code, 400101)
    assert.is((await credit(h, otherInvoice.id, { reason: 'x', lines: [{ transactionID: foreign, amount: '5.00' }] })).status, 201)
    assert.is(await balanceOf(h, c), 26.8)
  })

  test('two requests racing for the rest of a line: one credit note, the other 400', async ({ h, c }) => {
    const line = await charge(h, c, 'Installation', '8.00', 'Standard 20%')
    await bill(h, '2026-03-04')
    const inv = await lastInvoice(h, c)
    const answers = await Promise.all([0, 1, 2].map(() => credit(h, inv.id, { reason: 'race', lines: [{ transactionID: line }] })))
    assert.equal(answers.map((r) => r.status).sort(), [201, 400, 400], JSON.stringify(answers.map((r) => r.body)))
    const credited = ((await h.request('GET', '/transactions?limit=1000&transactionType=Credit%20Note')).body as any[]).filter((t) => t.creditedTransactionID === line)
    assert.equal(credited.map((t) => [t.amount, t.VATAmount]), [[-8, -1.6]])
  })

  test('a paid invoice credited leaves held credit that pays the next invoice; refunds never beyond it, also racing', async ({ h }) => {
    const c = await newCustomer(h, { paymentTerms: 14 })
    const line = await charge(h, c, 'Installation', '50.00', 'Standard 20%')
    await bill(h, '2026-03-05')
    const first = await lastInvoice(h, c)
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: '60.00', transactionDate: '2026-03-06' })).status, 201)
    assert.is((await invoice(h, first.id)).status, 'Paid')
    const r = await credit(h, first.id, { reason: 'Returned', lines: [{ transactionID: line }] })
    assert.equal([r.status, r.body.totalAmount], [201, -60])
    assert.equal([(await invoice(h, first.id)).amountPaid, await balanceOf(h, c)], [60, -60], 'paid already: all 60.00 is held')
    await charge(h, c, 'Installation', '30.00', 'Standard 20%')
    await bill(h, '2026-03-31')
    const next = await lastInvoice(h, c)
    assert.equal([next.totalAmount, next.amountPaid, next.status], [36, 36, 'Paid'], 'the held credit pays the next invoice')
    assert.is(await balanceOf(h, c), -24)
    const refund = (body: unknown) => h.request('POST', `/customers/${c}/refunds`, body)
    const over = await refund({ amount: '24.01', reference: 'BACS 1' })
    assert.equal([over.status, over.body.error_code], [400, 400101])
    assert.is(over.body.error, 'Field "amount" of refund is 24.01, more than the 24.00 of credit held')
    assert.is(over.body.hint, 'Refund at most 24.00.')
    for (const bad of [{ amount: 0 }, { amount: -1 }, { amount: '5', date: '2026-02-30' }, { amount: '5', colour: 'red' }]) {
      assert.is((await refund(bad)).body.error_code, 400101, JSON.stringify(bad))
    }
    const race = await Promise.all([refund({ amount: '20.00', reference: 'A' }), refund({ amount: '20.00', reference: 'B' })])
    assert.equal(race.map((x) => x.status).sort(), [201, 400], JSON.stringify(race.map((x) => x.body)))
    const made = race.find((x) => x.status === 201)!.body
    assert.equal([made.transactionType, made.amount, made.VATAmount, made.transactionDate], ['Refund', 20, 0, '2026-03-02'])
    assert.is(await balanceOf(h, c), -4)
    assert.is((await refund({ amount: '4.00', date: '2026-03-10' })).status, 201)
    assert.is(await balanceOf(h, c), 0)
    assert.is((await refund({ amount: '0.01' })).body.error_code, 400101, 'nothing held any more')
    const events = ((await h.request('GET', '/events?idAfter=0&limit=1000')).body as any[]).filter((e) => e.type === 'refund.created' && e.data.customerID === c)
    assert.equal(events.map((e) => e.data.amount), [20, 4])
    // A charge now is paid by nothing: the refunded credit is gone.
    await charge(h, c, 'Installation', '10.00', 'Standard 20%')
    await bill(h, '2026-04-30')
    assert.equal([(await lastInvoice(h, c)).amountPaid, (await lastInvoice(h, c)).status], [0, 'Unpaid'])
  })

  test('an invoice with a discount line is never credited beyond its net, by amount or by lines, nor the excess refunded; credited whole by amount, every line and account is reversed', async ({ h }) => {
    // 100.00 charged, 50.00 off: net 50.00, VAT 10.00, total 60.00.
    const c = await newCustomer(h, { paymentTerms: 14 })
    const line = await charge(h, c, 'Installation', '100.00', 'Standard 20%')
    const discount = await charge(h, c, 'Recurring Charge Discount', '-50.00', 'Standard 20%')
    await bill(h, '2026-05-04')
    const inv = await lastInvoice(h, c)
    assert.equal([inv.netAmount, inv.VATAmount, inv.totalAmount], [50, 10, 60])
    const before = await stored(h)
    const refused = async (body: unknown, field: string, left: string) => {
      const r = await credit(h, inv.id, body)
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, field)
      assert.match(r.body.error, new RegExp(`the ${left} left`))
    }
    await refused({ reason: 'x', amount: '100.00' }, '"amount"', '50.00')
    await refused({ reason: 'x', amount: '50.01' }, '"amount"', '50.00')
    await refused({ reason: 'x', lines: [{ transactionID: line }] }, '"lines"', '50.00')
    const onDiscount = await credit(h, inv.id, { reason: 'x', lines: [{ transactionID: discount }] })
    assert.equal([onDiscount.status, onDiscount.body.error_code], [400, 400101])
    assert.match(onDiscount.body.error, 'lines[0].transactionID') // a discount line is credited only with the others, by amount
    assert.equal(await stored(h), before, 'nothing written')
    // By amount, pro rata by net over both lines (contract 15.3): the discount's share is below zero,
    // so the note's lines credit 60.00 of the charge and give 30.00 of the discount back.
    const rows = async (note: any) => (await linesOf(h, note)).map((t) => [t.creditedTransactionID, t.amount, t.VATAmount])
    const first = await credit(h, inv.id, { reason: 'Part', amount: '30.00' })
    assert.equal([first.status, first.body.netAmount, first.body.VATAmount], [201, -30, -6], JSON.stringify(first.body))
    assert.equal(await rows(first.body), [[line, -60, -12], [discount, 30, 6]])
    assert.equal([(await invoice(h, inv.id)).amountPaid, await balanceOf(h, c)], [36, 24], 'the note pays its invoice by its total, 36.00')
    await refused({ reason: 'x', lines: [{ transactionID: line, amount: '20.01' }] }, '"lines"', '20.00')
    const rest = await credit(h, inv.id, { reason: 'Rest', amount: '20.00' })
    assert.equal([rest.status, rest.body.netAmount, rest.body.VATAmount], [201, -20, -4], JSON.stringify(rest.body))
    assert.equal(await rows(rest.body), [[line, -40, -8], [discount, 20, 4]])
    await refused({ reason: 'x', amount: '0.01' }, '"amount"', '0.00')
    const spent = await credit(h, inv.id, { reason: 'x', lines: [{ transactionID: line }] })
    assert.match(spent.body.error, 'has nothing left to credit')
    assert.is(await balanceOf(h, c), 0)
    assert.is((await h.request('POST', `/customers/${c}/refunds`, { amount: '0.01' })).body.error_code, 400101, 'no credit held to refund')
    // The journal's accounts of the invoice and its notes each come back to nothing.
    const journal = (await h.request('GET', '/journal?from=2026-01-01&to=2026-12-31')).body.lines.filter((l: any) => l.customerID === c)
    const byAccount = new Map<string, number>()
    for (const l of journal) byAccount.set(l.accountCode, Math.round(((byAccount.get(l.accountCode) ?? 0) + l.net + l.VAT) * 100) / 100)
    assert.equal([...byAccount], [['Installation', 0], ['Recurring Charge Discount', 0]])
  })

  test('a write-off counts as credited: a written-off invoice is not credited again, a part written off leaves only the rest', async ({ h }) => {
    const writtenOff = async (paid: string | null, vatTreatment: string) => {
      const c = await newCustomer(h, { paymentTerms: 14 })
      const line = await charge(h, c, 'Installation', '100.00', 'Standard 20%')
      await bill(h, '2026-05-05')
      const inv = await lastInvoice(h, c)
      if (paid) assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: paid, transactionDate: '2026-05-06' })).status, 201)
      await act(h, `/customers/${c}`, 'drop', { status: 'Dropped', dateDrop: '2026-05-07' })
      assert.is((await act(h, `/customers/${c}`, 'writeOffDebt', { dateWriteoff: '2026-05-07', vatTreatment })).balance, 0)
      assert.is((await invoice(h, inv.id)).status, 'Paid')
      return { c, line, inv }
    }
    const refused = async (invoiceID: string, body: unknown, field: string, left: string) => {
      const r = await credit(h, invoiceID, body)
      assert.equal([r.status, r.body.error_code], [400, 400101], JSON.stringify(r.body))
      assert.match(r.body.error, field)
      assert.match(r.body.error, new RegExp(`the ${left} left`))
    }
    // All of 120.00 written off (100.00 net): nothing left to credit, nothing to refund.
    const whole = await writtenOff(null, 'standard')
    await refused(whole.inv.id, { reason: 'again', amount: '100.00' }, '"amount"', '0.00')
    await refused(whole.inv.id, { reason: 'again', amount: '0.01' }, '"amount"', '0.00')
    await refused(whole.inv.id, { reason: 'again', lines: [{ transactionID: whole.line }] }, '"lines"', '0.00')
    assert.is(await balanceOf(h, whole.c), 0)
    assert.is((await h.request('POST', `/customers/${whole.c}/refunds`, { amount: '120.00' })).body.error_code, 400101)
    // 60.00 paid, 60.00 written off: standard takes 50.00 net + 10.00 VAT, leaving 50.00 net to credit;
    // vat_exempt takes all 60.00 as net, leaving 40.00.
    for (const [treatment, left, total] of [['standard', '50.00', -60], ['vat_exempt', '40.00', -48]] as const) {
      const part = await writtenOff('60.00', treatment)
      await refused(part.inv.id, { reason: 'x', amount: (Number(left) + 0.01).toFixed(2) }, '"amount"', left)
      const r = await credit(h, part.inv.id, { reason: 'Returned', lines: [{ transactionID: part.line, amount: left }] })
      assert.equal([r.status, r.body.totalAmount], [201, total], JSON.stringify(r.body))
      await refused(part.inv.id, { reason: 'x', amount: '0.01' }, '"amount"', '0.00')
      assert.is(await balanceOf(h, part.c), total, 'the credit of what was paid is held, to refund')
    }
  })

  test('an invoice credited part by lines, then the rest by lines and by amount, then paid, ends Paid at zero: never credited beyond its total', async ({ h }) => {
    // Lines whose VAT rounds: A 10.01 (VAT 2.00), B 7.77 (1.55) at 20%; C 3.33 (0.17), D 0.03 (0.00) at 5%; E 1.00 off at 20% (-0.20).
    const c = await newCustomer(h, { paymentTerms: 14 })
    const [a, b, cc, d] = [await charge(h, c, 'Installation', '10.01', 'Standard 20%'), await charge(h, c, 'Equipment Sale', '7.77', 'Standard 20%'), await charge(h, c, 'Installation', '3.33', 'Reduced 5%'), await charge(h, c, 'Installation', '0.03', 'Reduced 5%')]
    await charge(h, c, 'Recurring Charge Discount', '-1.00', 'Standard 20%')
    await bill(h, '2026-05-06')
    const inv = await lastInvoice(h, c)
    assert.equal([inv.netAmount, inv.VATAmount, inv.totalAmount], [20.14, 3.52, 23.66])
    const notes = { credited: 0 }
    const ok = async (body: unknown) => {
      const r = await credit(h, inv.id, body)
      assert.is(r.status, 201, JSON.stringify(r.body))
      notes.credited = Math.round((notes.credited - r.body.totalAmount) * 100) / 100
      assert.ok(notes.credited <= inv.totalAmount, `credited ${notes.credited} of ${inv.totalAmount}`)
      return r.body
    }
    const state = async () => {
      const i = await invoice(h, inv.id)
      return [i.amountPaid, i.amountOutstanding, i.status, await balanceOf(h, c)]
    }
    // Some lines: all of A, 1.00 of B; then the rest of B by lines: 12.01 + 9.32.
    await ok({ reason: 'Part', lines: [{ transactionID: a }, { transactionID: b, amount: '1.00' }] })
    await ok({ reason: 'Rest of B', lines: [{ transactionID: b }] })
    assert.equal([notes.credited, ...(await state())], [21.33, 21.33, 2.33, 'Unpaid', 2.33])
    // Then 1.00 by amount, spread pro rata over what is left (C, D and the discount).
    await ok({ reason: 'Goodwill', amount: '1.00' })
    const [, owed] = await state()
    assert.is(owed, Math.round((inv.totalAmount - notes.credited) * 100) / 100)
    // Pay the remainder: Paid, nothing owed.
    assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: String(owed), transactionDate: '2026-05-07' })).status, 201)
    assert.equal(await state(), [inv.totalAmount, 0, 'Paid', 0])
    // All that is left, by amount: the invoice is credited whole, to the penny, and what was paid is held.
    const left = (await credit(h, inv.id, { reason: 'x', amount: '99.00' })).body.hint.match(/at most (\d+\.\d{2})/)[1]
    await ok({ reason: 'All the rest', amount: left })
    assert.is(notes.credited, inv.totalAmount)
    assert.equal(await state(), [inv.totalAmount, 0, 'Paid', -owed])
    for (const body of [{ amount: '0.01' }, { lines: [{ transactionID: cc }] }, { lines: [{ transactionID: d }] }]) {
      assert.is((await credit(h, inv.id, { reason: 'again', ...body })).body.error_code, 400101, JSON.stringify(body))
    }
  })

  test('a credit note by lines that takes the last of an invoice with a discount credits its VAT to the penny: nothing left that no note can take', async ({ h }) => {
    const run = async (lines: [string, string, string][], bill_: string) => {
      const c = await newCustomer(h, { paymentTerms: 14 })
      const ids = []
      for (const [type, amount, rate] of lines) ids.push(await charge(h, c, type, amount, rate))
      await bill(h, bill_)
      return { c, ids, inv: await lastInvoice(h, c) }
    }
    const state = async (c: string, id: string) => {
      const i = await invoice(h, id)
      return [i.amountPaid, i.amountOutstanding, i.status, await balanceOf(h, c)]
    }
    // A 10.03 (VAT 2.006 → 2.01) and E 5.02 off (VAT -1.004 → -1.00) at 20%, B 4.00 at 5% (0.20): net 9.01, VAT 1.21, total 10.22.
    {
      const { c, ids: [a, b, e], inv } = await run([['Installation', '10.03', 'Standard 20%'], ['Installation', '4.00', 'Reduced 5%'], ['Recurring Charge Discount', '-5.02', 'Standard 20%']], '2026-05-08')
      assert.equal([inv.netAmount, inv.VATAmount, inv.totalAmount], [9.01, 1.21, 10.22])
      const first = await credit(h, inv.id, { reason: 'Some', lines: [{ transactionID: b }] })
      assert.equal([first.status, first.body.totalAmount], [201, -4.2])
      // The remainder paid: Paid at zero.
      assert.is((await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: '6.02', transactionDate: '2026-05-09' })).status, 201)
      assert.equal(await state(c, inv.id), [10.22, 0, 'Paid', 0])
      // The rest by lines: the most of A the invoice's net allows, 5.01. It takes the invoice's net to
      // nothing, so it credits the rest of every line (the discount given back): VAT 1.01, not 1.00.
      const last = await credit(h, inv.id, { reason: 'Rest', lines: [{ transactionID: a, amount: '5.01' }] })
      assert.equal([last.status, last.body.netAmount, last.body.VATAmount, last.body.totalAmount], [201, -5.01, -1.01, -6.02], JSON.stringify(last.body))
      assert.equal((await linesOf(h, last.body)).map((t) => [t.creditedTransactionID, t.amount, t.VATAmount]), [[a, -10.03, -2.01], [e, 5.02, 1]])
      assert.equal(await state(c, inv.id), [10.22, 0, 'Paid', -6.02], 'all that was paid is held, to refund')
      assert.is((await h.request('POST', `/customers/${c}/refunds`, { amount: '6.02' })).status, 201)
      assert.is(await balanceOf(h, c), 0)
      for (const body of [{ amount: '0.01' }, { lines: [{ transactionID: a }] }, { lines: [{ transactionID: e }] }]) {
        assert.is((await credit(h, inv.id, { reason: 'again', ...body })).body.error_code, 400101, JSON.stringify(body))
      }
    }
    // A discount at another rate: A 100.00 at 20% (VAT 20.00), E 50.00 off at 5% (-2.50): net 50.00, total 67.50.
    // Crediting 50.00 of A alone (VAT 10.00) would leave 7.50 of VAT owed on nothing, that no note could take.
    {
      const { c, ids: [a, e], inv } = await run([['Installation', '100.00', 'Standard 20%'], ['Recurring Charge Discount', '-50.00', 'Reduced 5%']], '2026-05-10')
      assert.equal([inv.netAmount, inv.VATAmount, inv.totalAmount], [50, 17.5, 67.5])
      const r = await credit(h, inv.id, { reason: 'All', lines: [{ transactionID: a, amount: '50.00' }] })
      assert.equal([r.status, r.body.netAmount, r.body.VATAmount, r.body.totalAmount], [201, -50, -17.5, -67.5], JSON.stringify(r.body))
      assert.equal((await linesOf(h, r.body)).map((t) => [t.creditedTransactionID, t.amount, t.VATAmount, t.VATRate]), [[a, -100, -20, 'Standard 20%'], [e, 50, 2.5, 'Reduced 5%']])
      assert.equal(await state(c, inv.id), [67.5, 0, 'Paid', 0])
    }
  })

  test('documents: JSON, HTML and PDF with the seller, the customer and the invoice it credits; expert level 3', async ({ h, c, inv }) => {
    const [note] = (await h.request('GET', `/customers/${c}/creditNotes`)).body as any[]
    const html = await h.request('GET', `/creditNotes/${note.id}`, undefined, { headers: { accept: 'text/html' } })
    assert.is(html.status, 200)
    assert.match(html.headers.get('content-type')!, 'text/html')
    for (const text of [h.platform.context.presets.seller.name, `Credit note for invoice ${inv.invoiceNumber}`, note.creditNoteNumber, 'Reason: Goodwill', '-£11.50', 'Reduced 5%']) {
      assert.ok(html.text.includes(text.replace(/&/g, '&amp;')), `HTML shows ${text}`)
    }
    const pdf = await h.platform.app.request(`/backend/api/v1/creditNotes/${note.id}`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept: 'application/pdf' } })
    assert.is(pdf.headers.get('content-type'), 'application/pdf')
    const text = (await pdfLines(new Uint8Array(await pdf.arrayBuffer()))).map((l) => l.join(' ')).join('\n')
    for (const s of ['CREDIT NOTE', `Credit note for invoice ${inv.invoiceNumber}`, note.creditNoteNumber]) assert.ok(text.includes(s), `PDF shows ${s}:\n${text}`)
    assert.equal((await h.request('GET', `/creditNotes/${note.id}`)).body, note)
    assert.equal(((await h.request('GET', `/creditNotes?invoiceID=${inv.id}`)).body as any[]).map((n) => n.id).slice(0, 1), [note.id])
    for (const [method, path] of [['GET', '/creditNotes'], ['GET', `/creditNotes/${note.id}`], ['POST', `/invoices/${inv.id}/creditNotes`], ['POST', `/customers/${c}/refunds`]]) {
      const r = await h.request(method, path, method === 'POST' ? { reason: 'x', amount: 1 } : undefined, { key: h.keys.low })
      assert.equal([r.status, r.body.error_code], [403, 403103], `${method} ${path}`)
    }
  })

  test.run()
}
