import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

const invoicesOf = async (h: Harness, c: string) => (await h.request('GET', `/customers/${c}/invoices?limit=1000`)).body as any[]
const transactionsOf = async (h: Harness, c: string, query = '') => (await h.request('GET', `/customers/${c}/transactions?limit=1000${query}`)).body as any[]
const charge = async (h: Harness, c: string, amount: number, transactionDate: string, extra: Record<string, unknown> = {}) => {
  const r = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Debit Note', amount, transactionDate, ...extra })
  assert.is(r.status, 201, JSON.stringify(r.body))
  return r.body
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`invoicing: empty and low invoices [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-01-05T09:00:00Z' })
  })
  test.after(async (ctx) => ctx.h.close())

  test('empty invoices: Suppress (default) raises none, Send an empty one, Charge Minimum a Minimum Charge; a re-run adds nothing', async ({ h }) => {
    const plain = await newCustomer(h)
    const send = await newCustomer(h, { emptyInvoiceAction: 'Send' })
    const minimum = await newCustomer(h, { emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 5, VATRate: 'Standard 20%' })
    const suppress = await newCustomer(h, { emptyInvoiceAction: 'Suppress' })
    await bill(h, '2026-01-31')
    await bill(h, '2026-01-31')
    assert.equal(await invoicesOf(h, plain), [])
    assert.equal(await invoicesOf(h, suppress), [])
    const [sent, ...more] = await invoicesOf(h, send)
    assert.equal(more, [], 'one invoice however often the run is repeated')
    assert.equal([sent.totalAmount, sent.transactionIDs, sent.status], [0, [], 'Paid'])
    const charged = await invoicesOf(h, minimum)
    assert.is(charged.length, 1)
    assert.equal([charged[0].netAmount, charged[0].VATAmount, charged[0].totalAmount], [5, 1, 6])
    const [row] = await transactionsOf(h, minimum)
    assert.equal([row.transactionType, row.amount, row.VATAmount, row.invoiceID, row.approved], ['Minimum Charge', 5, 1, charged[0].id, true])
  })

  test('low invoices: Net Total / Gross Total / Call Charges detection; Charge Minimum tops up; Suppress marks it', async ({ h }) => {
    const topUp = await newCustomer(h, { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 10, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: 12 })
    const gross = await newCustomer(h, { VATRate: 'Standard 20%', lowInvoiceDetect: 'Gross Total', lowInvoiceDetectValue: 10, lowInvoiceAction: 'Suppress' })
    const net = await newCustomer(h, { VATRate: 'Standard 20%', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 10, lowInvoiceAction: 'Suppress' })
    const calls = await newCustomer(h, { lowInvoiceDetect: 'Call Charges', lowInvoiceDetectValue: 1, lowInvoiceAction: 'Suppress' })
    await charge(h, topUp, 7.5, '2026-02-03')
    await charge(h, gross, 9, '2026-02-03') // 9.00 + 1.80 VAT = 10.80: not low by its gross total
    await charge(h, net, 9, '2026-02-03') // low by its net total
    await charge(h, calls, 50, '2026-02-03') // no calls at all: low by its call charges
    await bill(h, '2026-02-28')
    const [t] = await invoicesOf(h, topUp)
    assert.equal([t.netAmount, t.suppressed], [12, false])
    assert.equal((await transactionsOf(h, topUp, '&transactionType=Minimum%20Charge')).map((r) => r.amount), [4.5])
    assert.is((await invoicesOf(h, gross))[0].suppressed, false)
    assert.is((await invoicesOf(h, net))[0].suppressed, true)
    assert.is((await invoicesOf(h, calls))[0].suppressed, true)
  })

  test('Carry Forward: no invoice now; its transactions go on the next one exactly once; never for a final bill', async ({ h }) => {
    const c = await newCustomer(h, { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 20, lowInvoiceAction: 'Carry Forward' })
    await newFeature(h, c, { startDate: '2026-03-01', serviceCharge: '12.00', serviceChargeInterval: 'Calendar Monthly' })
    await bill(h, '2026-03-31')
    assert.equal(await invoicesOf(h, c), [], 'March alone is 12.00: below 20.00')
    assert.equal((await transactionsOf(h, c, '&approved=false')).map((r) => r.amount), [12])
    await bill(h, '2026-03-31')
    assert.equal(await invoicesOf(h, c), [], 'a re-run carries forward again')
    await bill(h, '2026-04-30')
    const [inv] = await invoicesOf(h, c)
    assert.equal([inv.netAmount, inv.transactionIDs.length], [24, 2], 'March and April together')
    await bill(h, '2026-04-30')
    assert.is((await invoicesOf(h, c)).length, 1)
    assert.equal(await transactionsOf(h, c, '&approved=false'), [])
    await act(h, `/customers/${c}`, 'finalBill', { status: 'Final Bill', dateFinalBill: '2026-05-10' })
    await bill(h, '2026-05-31')
    const all = await invoicesOf(h, c)
    assert.is(all.length, 2, 'a final bill is raised however low')
    assert.ok(all[1].netAmount < 20)
  })

  test("a number's call-charge minimum tops its calls up with a Call Charges Minimum row; not for a dropped number", async ({ h }) => {
    const c = await newCustomer(h)
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0001', lowInvoiceActionValue: 5 })).body.id
    const m = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0002', lowInvoiceActionValue: 5 })).body.id
    const d = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0003', lowInvoiceActionValue: 5 })).body.id
    await act(h, `/numbers/${d}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-10' })
    await charge(h, c, 2, '2026-01-20', { numberID: n, transactionType: 'Call Charges' })
    await charge(h, c, 7, '2026-01-20', { numberID: m, transactionType: 'Call Charges' })
    await bill(h, '2026-01-31')
    const top = await transactionsOf(h, c, '&transactionType=Call%20Charges%20Minimum')
    assert.equal(top.map((r) => [r.numberID, r.amount]), [[n, 3]])
    const [inv] = await invoicesOf(h, c)
    assert.is(inv.netAmount, 12)
    assert.ok(inv.transactionIDs.includes(top[0].id))
  })

  test("a suspended number keeps its call-charge minimum (active is not dropped; its calls are still charged); the top-up takes its calls' VAT rate: the number's VATRateCalls, else the customer's, else its VATRate", async ({ h }) => {
    const c = await newCustomer(h, { VATRate: 'Standard 20%' })
    const number = async (digits: string, body: Record<string, unknown> = {}) => (await h.request('POST', `/customers/${c}/numbers`, { number: digits, lowInvoiceActionValue: 5, ...body })).body.id as string
    const zero = await number('0161 555 0031', { VATRateCalls: 'Zero Rated' })
    const plain = await number('0161 555 0032')
    const suspended = await number('0161 555 0033')
    await act(h, `/numbers/${suspended}`, 'suspend', { status: 'Suspended', dateSuspend: '2026-01-20' })
    for (const n of [zero, plain, suspended]) await charge(h, c, 1, '2026-01-10', { numberID: n, transactionType: 'Call Charges' })
    const other = await newCustomer(h, { VATRate: 'Standard 20%', VATRateCalls: 'Reduced 5%' })
    const byCustomer = (await h.request('POST', `/customers/${other}/numbers`, { number: '0161 555 0034', lowInvoiceActionValue: 5 })).body.id
    await charge(h, other, 1, '2026-01-10', { numberID: byCustomer, transactionType: 'Call Charges' })
    await bill(h, '2026-01-31')
    const tops = async (customer: string) =>
      (await transactionsOf(h, customer, '&transactionType=Call%20Charges%20Minimum')).map((r) => [r.numberID, r.amount, r.VATRate, r.VATAmount, r.invoiceID !== null])
    assert.equal(
      await tops(c),
      [
        [zero, 4, 'Zero Rated', 0, true],
        [plain, 4, 'Standard 20%', 0.8, true],
        [suspended, 4, 'Standard 20%', 0.8, true],
      ],
    )
    assert.equal(await tops(other), [[byCustomer, 4, 'Reduced 5%', 0.2, true]])
  })

  test("an empty invoice that is raised (Send, Charge Minimum) carries its numbers' call-charge minimums on top; once however often the run is repeated", async ({ h }) => {
    const send = await newCustomer(h, { emptyInvoiceAction: 'Send' })
    const n = (await h.request('POST', `/customers/${send}/numbers`, { number: '0161 555 0021', lowInvoiceActionValue: 5 })).body.id
    // Low invoices carried forward: the empty action decides an empty invoice, not the low rules.
    const minimum = await newCustomer(h, { emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 10, lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 50, lowInvoiceAction: 'Carry Forward' })
    const m = (await h.request('POST', `/customers/${minimum}/numbers`, { number: '0161 555 0022', lowInvoiceActionValue: 3 })).body.id
    const suppress = await newCustomer(h)
    await h.request('POST', `/customers/${suppress}/numbers`, { number: '0161 555 0023', lowInvoiceActionValue: 5 })
    await bill(h, '2026-06-30')
    await bill(h, '2026-06-30')
    for (const [c, number, amount, charged] of [[send, n, 5, 0], [minimum, m, 3, 10]] as const) {
      const [inv, ...more] = await invoicesOf(h, c)
      assert.equal(more, [])
      const rows = (await transactionsOf(h, c)).map((r) => [r.transactionType, r.numberID, r.amount, r.invoiceID])
      const minimumCharge = charged ? [['Minimum Charge', null, charged, inv.id]] : []
      assert.equal(rows, [['Call Charges Minimum', number, amount, inv.id], ...minimumCharge])
      assert.is(inv.netAmount, amount + charged, "its empty action's invoice, with its numbers' minimums on it")
    }
    assert.equal(await invoicesOf(h, suppress), [], 'Suppress raises no empty invoice, so no minimum either')
  })

  test('a number or customer dropped after the cutoff still has that period\'s minimum and empty invoice', async ({ h }) => {
    h.clock.set('2026-03-05T09:00:00.000Z')
    try {
      const c = await newCustomer(h)
      const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0011', lowInvoiceActionValue: 5 })).body.id
      const m = (await h.request('POST', `/customers/${c}/numbers`, { number: '0161 555 0012', lowInvoiceActionValue: 5 })).body.id
      await act(h, `/numbers/${m}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-03' })
      await charge(h, c, 2, '2026-02-20', { numberID: n, transactionType: 'Call Charges' })
      await charge(h, c, 1, '2026-02-20', { numberID: m, transactionType: 'Call Charges' })
      const send = await newCustomer(h, { emptyInvoiceAction: 'Send' })
      await act(h, `/customers/${send}`, 'drop', { status: 'Dropped', dateDrop: '2026-03-02' })
      await bill(h, '2026-02-28')
      const top = await transactionsOf(h, c, '&transactionType=Call%20Charges%20Minimum')
      assert.equal(top.map((r) => [r.numberID, r.amount]).sort(), [[n, 3], [m, 4]].sort(), 'both numbers were active on 28 February')
      assert.is((await invoicesOf(h, send)).length, 1, 'the customer was active on 28 February')
    } finally {
      h.clock.set('2026-01-05T09:00:00.000Z')
    }
  })

  test('a credit invoice (a drop refund above the charges) is never low: no top-up, not carried forward, not suppressed; its credit can be refunded', async ({ h }) => {
    for (const lowInvoiceAction of ['Charge Minimum', 'Carry Forward', 'Suppress']) {
      const c = await newCustomer(h, { lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 10, lowInvoiceAction, lowInvoiceActionValue: 10 })
      const f = await newFeature(h, c, { startDate: '2026-07-01', serviceCharge: '31.00', serviceChargeInterval: 'Calendar Monthly' })
      await bill(h, '2026-07-31')
      await charge(h, c, -31, '2026-08-01', { transactionType: 'Payment' })
      await act(h, `/features/${f}`, 'drop', { status: 'Dropped', dateDrop: '2026-07-10' })
      await bill(h, '2026-08-31')
      const invoices = await invoicesOf(h, c)
      assert.equal(invoices.map((i) => [i.netAmount, i.suppressed]), [[31, false], [-21, false]], lowInvoiceAction)
      assert.equal(await transactionsOf(h, c, '&transactionType=Minimum%20Charge'), [], lowInvoiceAction)
      const refund = await h.request('POST', `/customers/${c}/refunds`, { amount: '21.00', date: '2026-09-01', reference: 'R1' })
      assert.is(refund.status, 201, `${lowInvoiceAction}: ${JSON.stringify(refund.body)}`)
    }
    // By its gross total too: net 1.00 with VAT −2.00 is a credit of 1.00, not a low bill.
    for (const lowInvoiceAction of ['Charge Minimum', 'Carry Forward']) {
      const c = await newCustomer(h, { lowInvoiceDetect: 'Gross Total', lowInvoiceDetectValue: 10, lowInvoiceAction, lowInvoiceActionValue: 10 })
      await charge(h, c, 11, '2026-09-03', { transactionType: 'Installation', VATRate: 'Zero Rated' })
      await charge(h, c, 4, '2026-09-03', { transactionType: 'Installation', VATRate: 'Standard 20%' })
      await charge(h, c, -14, '2026-09-03', { transactionType: 'Debit Note', VATRate: 'Standard 20%' })
      await bill(h, '2026-09-30')
      const [inv, ...more] = await invoicesOf(h, c)
      assert.equal([inv?.netAmount, inv?.VATAmount, inv?.totalAmount, more.length], [1, -2, -1, 0], lowInvoiceAction)
    }
  })

  test('minimum rows are rounded half-up to pence when created, and the invoice sums them as written', async ({ h }) => {
    const empty = await newCustomer(h, { VATRate: 'Standard 20%', emptyInvoiceAction: 'Charge Minimum', emptyInvoiceActionValue: 9.995 })
    const low = await newCustomer(h, { VATRate: 'Standard 20%', lowInvoiceDetect: 'Net Total', lowInvoiceDetectValue: 20, lowInvoiceAction: 'Charge Minimum', lowInvoiceActionValue: 10.005 })
    const calls = await newCustomer(h, { VATRate: 'Standard 20%' })
    const n = (await h.request('POST', `/customers/${calls}/numbers`, { number: '0161 555 0009', lowInvoiceActionValue: '5.5555' })).body.id
    await charge(h, low, 1, '2026-01-10')
    await charge(h, calls, 1, '2026-01-10')
    await bill(h, '2026-01-31')
    const expected: [string, string, number, number, number[]][] = [
      [empty, 'Minimum Charge', 10, 2, [10, 2, 12]],
      [low, 'Minimum Charge', 9.01, 1.8, [10.01, 2, 12.01]],
      [calls, 'Call Charges Minimum', 5.56, 1.11, [6.56, 1.31, 7.87]],
    ]
    for (const [c, type, amount, vat, totals] of expected) {
      const [row] = await transactionsOf(h, c, `&transactionType=${encodeURIComponent(type)}`)
      assert.equal([row.amount, row.VATAmount, row.numberID], [amount, vat, type === 'Minimum Charge' ? null : n], type)
      const [inv] = await invoicesOf(h, c)
      assert.equal([inv.netAmount, inv.VATAmount, inv.totalAmount], totals)
    }
  })

  test('bad values of the rule fields get 400101; presets list the shipped names', async ({ h }) => {
    for (const body of [{ emptyInvoiceAction: 'Ignore' }, { lowInvoiceDetect: 'Total' }, { lowInvoiceAction: 'Drop' }, { lowInvoiceDetectValue: 'x' }]) {
      assert.is((await h.request('POST', '/customers', body)).body.error_code, 400101, JSON.stringify(body))
    }
    const presets = (await h.request('GET', '/presets/customers')).body
    assert.equal(presets.emptyInvoiceAction, ['Suppress', 'Send', 'Charge Minimum'])
    assert.equal(presets.lowInvoiceDetect, ['Net Total', 'Gross Total', 'Call Charges'])
    assert.equal(presets.lowInvoiceAction, ['Suppress', 'Carry Forward', 'Charge Minimum'])
    assert.ok((await h.request('GET', '/presets/transactions')).body.transactionType.includes('Call Charges Minimum'))
  })

  test.run()
}
