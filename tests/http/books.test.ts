import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { act, bill, newCustomer, newFeature } from '../support/billing.js'
import { BASE, openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'

/**
 * Contract 16.2 and 16.4, worked by hand: a half-month feature with a carrier cost, refunded on
 * drop; a journal of an invoice with two VAT rates and a payment.
 */
const get = async (h: Harness, path: string, csv = false) => {
  const r = await h.request('GET', path, undefined, csv ? { headers: { accept: 'text/csv' } } : {})
  assert.is(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
  return csv ? r.text.trim().split('\r\n') : r.body
}

for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`books: margin and journal (contract 16.2, 16.4) [${target}]`)
  test.before.each(async (ctx) => {
    ctx.h = await openHarness(target, { now: '2026-02-01T09:00:00Z' })
  })
  test.after.each(async (ctx) => ctx.h.close())

  test('a half-month feature with a carrier cost, refunded on drop; margin by month, customer, carrier, feature type', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'M-1', VATRate: 'Standard 20%' })
    // From 16 January, Calendar Monthly: 16 of 31 days. 31.00 × 16/31 = 16.00, carrier 12.40 × 16/31 = 6.40;
    // connection 5.00, carrier 2.50.
    const f1 = await newFeature(h, c, { featureType: 'Broadband', carrier: 'Gamma', startDate: '2026-01-16', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '31.00', serviceChargeCarrier: '12.40', connectionCharge: '5.00', connectionChargeCarrier: '2.50' })
    await newFeature(h, c, { featureType: 'Support', startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00' })
    await bill(h, '2026-01-31')
    const costs = ((await get(h, `/features/${f1}/transactions`)) as any[]).map((t) => [t.transactionType, t.amount, t.carrierCost])
    assert.equal(costs, [['Connection Charge', 5, 2.5], ['Recurring Charge', 16, 6.4]])
    const [invoice] = (await get(h, `/customers/${c}/invoices`)) as any[]
    assert.not.ok(JSON.stringify(invoice).includes('carrierCost'), 'never on the customer’s documents')

    // January: revenue 5 + 16 + 10 = 31.00, cost 2.50 + 6.40 = 8.90, margin 22.10 = 71.29 %.
    let margin = await get(h, '/reports/margin?from=2026-01-01&to=2026-01-31&groupBy=month')
    assert.equal(margin.rows, [{ month: '2026-01', revenue: 31, cost: 8.9, margin: 22.1, marginPercent: 71.29, currency: 'GBP' }])
    assert.equal(margin.totals, { revenue: 31, cost: 8.9, margin: 22.1, marginPercent: 71.29 })

    // Dropped with bill-to 23 January: the approved 16.00 (cost 6.40) is refunded and 8 days charged
    // again, 8.00 (cost 3.20), both dated on the period's first day; February adds the support 10.00.
    await act(h, `/features/${f1}`, 'drop', { status: 'Dropped', dateDrop: '2026-01-23' })
    await bill(h, '2026-02-28')
    const after = ((await get(h, `/features/${f1}/transactions`)) as any[]).map((t) => [t.transactionType, t.amount, t.carrierCost])
    assert.equal(after.slice(2), [['Recurring Charge Refund', -16, -6.4], ['Recurring Charge', 8, 3.2]])
    margin = await get(h, '/reports/margin?from=2026-01-01&to=2026-02-28&groupBy=month')
    // January: 31 − 16 + 8 = 23.00 against 8.90 − 6.40 + 3.20 = 5.70: margin 17.30 = 75.22 %.
    assert.equal(margin.rows, [
      { month: '2026-01', revenue: 23, cost: 5.7, margin: 17.3, marginPercent: 75.22, currency: 'GBP' },
      { month: '2026-02', revenue: 10, cost: 0, margin: 10, marginPercent: 100, currency: 'GBP' },
    ])
    const byCustomer = await get(h, '/reports/margin?from=2026-01-01&to=2026-02-28')
    assert.equal(byCustomer.rows, [{ customer: c, revenue: 33, cost: 5.7, margin: 27.3, marginPercent: 82.73, currency: 'GBP' }])
    const byCarrier = await get(h, '/reports/margin?from=2026-01-01&to=2026-02-28&groupBy=carrier')
    assert.equal(byCarrier.rows.map((r: any) => [r.carrier, r.revenue, r.cost]), [['Gamma', 13, 5.7], [null, 20, 0]])
    const byType = await get(h, '/reports/margin?groupBy=featureType')
    assert.equal(byType.rows.map((r: any) => [r.featureType, r.revenue, r.cost]), [['Broadband', 13, 5.7], ['Support', 20, 0]])
    const csv = await get(h, '/reports/margin?from=2026-01-01&to=2026-02-28&groupBy=month', true)
    assert.equal(csv, ['month,revenue,cost,margin,marginPercent,currency', '2026-01,23,5.7,17.3,75.22,GBP', '2026-02,10,0,10,100,GBP', 'total,33,5.7,27.3,82.73,GBP', 'total,33,5.7,27.3,82.73,'])
  })

  test('a journal of an invoice with two VAT rates and a payment; a run’s journal sums to its invoices', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'J-1', VATRate: 'Standard 20%' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '16.00', connectionCharge: '5.00', serviceTransactionCode: '4000', connectionTransactionCode: '4100' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', VATRate: 'Zero Rated' })
    const run = await bill(h, '2026-01-31')
    const [invoice] = (await get(h, `/customers/${c}/invoices`)) as any[]
    // 16.00 + 3.20 VAT under 4000, 5.00 + 1.00 under 4100, 10.00 at zero under the type: 31.00 + 4.20 = 35.20.
    assert.equal([invoice.netAmount, invoice.VATAmount, invoice.totalAmount], [31, 4.2, 35.2])
    const journal = await get(h, `/billingRuns/${run.id}/journal`)
    const doc = invoice.invoiceNumber
    const line = (accountCode: string, VATRate: string, net: number, VAT: number) => ({ date: '2026-01-31', documentType: 'invoice', document: doc, customerID: c, account: 'J-1', accountCode, VATRate, net, VAT, currency: 'GBP' })
    assert.equal(journal.lines, [line('4000', 'Standard 20%', 16, 3.2), line('4100', 'Standard 20%', 5, 1), line('Recurring Charge', 'Zero Rated', 10, 0)])
    assert.equal(journal.totals, { net: 31, VAT: 4.2, total: 35.2 })

    const paid = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: -35.2, transactionDate: '2026-02-05' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))
    const all = await get(h, '/journal?from=2026-01-01&to=2026-02-28')
    assert.equal(all.lines.at(-1), { date: '2026-02-05', documentType: 'payment', document: paid.body.id, customerID: c, account: 'J-1', accountCode: 'Payment', VATRate: null, net: -35.2, VAT: 0, currency: 'GBP' })
    assert.equal(all.totals, { net: -4.2, VAT: 4.2, total: 0 })
    const csv = await get(h, '/journal?from=2026-02-01&to=2026-02-28', true)
    assert.equal(csv, ['date,documentType,document,customerID,account,accountCode,VATRate,net,VAT,currency', `2026-02-05,payment,${paid.body.id},${c},J-1,Payment,,-35.2,0,GBP`, 'total,,,,,,,-35.2,0,GBP', 'total,,,,,,,-35.2,0,'])
  })

  test("a run's journal as CSV is its JSON lines cell for cell: quotes, commas and line breaks, negative and fractional amounts, an amount beyond 10^15 ten-thousandths", async ({ h }) => {
    const c1 = await newCustomer(h, { accountNumber: 'Q-1', VATRate: 'Standard 20%' })
    const c2 = await newCustomer(h, { accountNumber: 'Q,2', VATRate: 'Standard 20%' })
    for (const c of [c1, c2]) {
      await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '16.00', serviceTransactionCode: '4000' })
      await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', VATRate: 'Zero Rated' })
    }
    const run = await bill(h, '2026-01-31')
    const db = h.platform.database.db
    const [i1, i2] = ((await sql<{ id: unknown }>`select id from invoices where "billingRunID" = ${Number(run.id)} order by id`.execute(db)).rows).map((r) => r.id)
    // Awkward values the ledger does not make (accountingID is read-only here), written where the journal reads them.
    await sql`update customers set "accountingID" = ${'A "q", b'} where id = ${Number(c1)}`.execute(db)
    await sql`update invoice_journal_lines set "VATRate" = '', net = 5000, "VATAmount" = -5000 where "invoiceID" = ${i1} and "accountCode" <> '4000'`.execute(db)
    await sql`update invoice_journal_lines set "accountCode" = ${'Z "b", c\r\nd'}, net = -12345, "VATAmount" = 1 where "invoiceID" = ${i1} and "accountCode" = '4000'`.execute(db)
    await sql`update invoice_journal_lines set net = 100000000, "VATAmount" = 0 where "invoiceID" = ${i2} and "accountCode" = '4000'`.execute(db)
    await sql`update invoices set "invoiceNumber" = ${'INV,"2"'} where id = ${i2}`.execute(db)
    const cell = (v: unknown) => (v === null ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v))
    const columns = ['date', 'documentType', 'document', 'customerID', 'account', 'accountCode', 'VATRate', 'net', 'VAT', 'currency']
    const totals = (journal: any) => [...journal.totalsByCurrency, { ...journal.totals, currency: '' }].map((t: any) => `total,,,,,,,${t.net},${t.VAT},${t.currency}`)
    const asCsv = (journal: any) =>
      [columns.join(','), ...journal.lines.map((l: any) => columns.map((k) => cell(l[k])).join(',')), ...totals(journal)].map((l) => `${l}\r\n`).join('')
    const csvOf = async () => {
      const r = await h.request('GET', `/billingRuns/${run.id}/journal`, undefined, { headers: { accept: 'text/csv' } })
      assert.is(r.status, 200)
      return r.text
    }
    const journal = await get(h, `/billingRuns/${run.id}/journal`)
    assert.equal(journal.lines.map((l: any) => [l.account, l.accountCode, l.VATRate, l.net, l.VAT]), [
      ['A "q", b', 'Recurring Charge', null, 0.5, -0.5],
      ['A "q", b', 'Z "b", c\r\nd', 'Standard 20%', -1.2345, 0.0001],
      ['Q,2', '4000', 'Standard 20%', 10000, 0],
      ['Q,2', 'Recurring Charge', 'Zero Rated', 10, 0],
    ])
    const text = await csvOf()
    assert.is(text, asCsv(journal))
    assert.ok(text.includes(`,"A ""q"", b","Z ""b"", c\r\nd",Standard 20%,-1.2345,0.0001,GBP\r\n`), text)
    assert.ok(text.includes(`,"INV,""2""",`), text)
    // Compressed as it streams (no length known before its last line), to the same text.
    const gzipped = await h.platform.app.request(`${BASE}/billingRuns/${run.id}/journal`, { headers: { authorization: `Bearer ${h.keys.admin}`, accept: 'text/csv', 'accept-encoding': 'gzip' } })
    assert.is(gzipped.headers.get('content-encoding'), 'gzip')
    assert.is(gzipped.headers.get('content-length'), null)
    assert.is(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString('utf8'), text)

    // Beyond 10^15 ten-thousandths the page's lines are written here (its amount's JSON number, not its decimal text).
    await sql`update invoice_journal_lines set net = 1000000000000001 where "invoiceID" = ${i2} and "accountCode" = '4000'`.execute(db)
    const large = await get(h, `/billingRuns/${run.id}/journal`)
    assert.is(large.lines[2].net, 100000000000.0001)
    assert.is(await csvOf(), asCsv(large))
  })

  test('CSV text a spreadsheet would run as a formula gets a leading \' (margin, journal as the database writes it and as lines); negative amounts stay numbers', async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'X-1', VATRate: 'Standard 20%' })
    // 10.00 charged against a carrier cost of 31.00: a margin of -21.00.
    const f = await newFeature(h, c, { featureType: 'Broadband', startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '10.00', serviceChargeCarrier: '31.00', serviceTransactionCode: '4000' })
    const run = await bill(h, '2026-01-31')
    const db = h.platform.database.db
    // Hostile text where the reports read it (these columns take no such text through the API, a client's own text the same way).
    await sql`update features set "featureType" = ${'=HYPERLINK("http://evil","x")'} where id = ${Number(f)}`.execute(db)
    await sql`update customers set "accountingID" = ${'@SUM(1)'} where id = ${Number(c)}`.execute(db)
    await sql`update invoices set "invoiceNumber" = ${'\t=1+1'} where "customerID" = ${Number(c)}`.execute(db)
    await sql`update invoice_journal_lines set "accountCode" = ${"+cmd|' /C calc'!A0"}, "VATRate" = ${'-20.5'}, net = -210000, "VATAmount" = 0 where "invoiceID" in (select id from invoices where "customerID" = ${Number(c)})`.execute(db)
    const margin = await get(h, '/reports/margin?groupBy=featureType', true)
    assert.equal(margin.slice(1, 2), [`"'=HYPERLINK(""http://evil"",""x"")",10,31,-21,-210,GBP`])
    const line = `2026-01-31,invoice,'\t=1+1,${c},'@SUM(1),'+cmd|' /C calc'!A0,-20.5,-21,0,GBP`
    assert.equal(await get(h, `/billingRuns/${run.id}/journal`, true), ['date,documentType,document,customerID,account,accountCode,VATRate,net,VAT,currency', line, 'total,,,,,,,-21,0,GBP', 'total,,,,,,,-21,0,'])
    // Beyond 10^15 ten-thousandths the invoice's line is written here, not by the database; a payment's always is.
    await sql`update invoice_journal_lines set "VATAmount" = 1000000000000001 where "invoiceID" in (select id from invoices where "customerID" = ${Number(c)})`.execute(db)
    const paid = await h.request('POST', `/customers/${c}/transactions`, { transactionType: 'Payment', amount: -12, transactionDate: '2026-02-05' })
    assert.is(paid.status, 201, JSON.stringify(paid.body))
    const journal = await get(h, '/journal', true)
    assert.equal(journal.slice(1, 3), [line.replace(',-21,0,', ',-21,100000000000.0001,'), `2026-02-05,payment,${paid.body.id},${c},'@SUM(1),Payment,,-12,0,GBP`])
  })

  test("calls keep the record's wholesaleCost; Call Charges carry their sum; margin by call class splits them, rounding aside", async ({ h }) => {
    const mobile = (await h.request('POST', '/tariffs', { name: 'UK Mobile', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${mobile}/tariffDetails`, { chargeBand: 'MOB', timeBand: 'any', cost: '0.10', costConnection: '0.02' })
    const national = (await h.request('POST', '/tariffs', { name: 'UK National', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${national}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05', costConnection: '0.01' })
    const c = await newCustomer(h, { defaultMobileTariff: 'UK Mobile', defaultNationalTariff: 'UK National' })
    const n = (await h.request('POST', `/customers/${c}/numbers`, { number: '01632 960 001' })).body.id
    // 61 s mobile: 0.02 + 0.10 × 2 = 0.22 (wholesale 0.0833); 30 s national: 0.01 + 0.05 = 0.06 (wholesale 0.0125).
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier,wholesaleCost', '01632960001,07700900001,2026-01-10T10:00:00Z,61,MOB,mobile,Gamma,0.0833', '01632960001,01632960999,2026-01-11T10:00:00Z,30,NAT,national,Daisy,0.0125'].join('\n') + '\n'
    const posted = await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })
    assert.is(posted.status, 201, JSON.stringify(posted.body))
    const calls = ((await get(h, `/numbers/${n}/calls`)) as any[]).map((x) => [x.callType, x.cost, x.carrierCost])
    assert.equal(calls, [['mobile', 0.22, 0.0833], ['national', 0.06, 0.0125]])
    await bill(h, '2026-01-31')
    const row = ((await get(h, `/customers/${c}/transactions`)) as any[]).find((t) => t.transactionType === 'Call Charges')
    assert.equal([row.amount, row.carrierCost], [0.28, 0.1]) // 0.0958 rounded once, as the amount is
    const byClass = await get(h, '/reports/margin?groupBy=callClass')
    // The 0.0042 the row's rounding adds to the calls' cost has no class.
    assert.equal(byClass.rows.map((r: any) => [r.callClass, r.revenue, r.cost]), [['mobile', 0.22, 0.0833], ['national', 0.06, 0.0125], [null, 0, 0.0042]])
    assert.equal([byClass.totals.revenue, byClass.totals.cost], [0.28, 0.1])
    const byCarrier = await get(h, '/reports/margin?groupBy=carrier')
    assert.equal(byCarrier.rows.map((r: any) => [r.carrier, r.revenue, r.cost]), [['Daisy', 0.06, 0.0125], ['Gamma', 0.22, 0.0833], [null, 0, 0.0042]])
  })

  test("a run's journal: call charges under their number's callsTransactionCode (the least of its features'), else their type; a code shared with charges is one line", async ({ h }) => {
    const national = (await h.request('POST', '/tariffs', { name: 'UK National', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${national}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05', costConnection: '0.01' })
    const c = await newCustomer(h, { accountNumber: 'K-1', VATRate: 'Standard 20%', defaultNationalTariff: 'UK National' })
    const numbers: string[] = []
    for (const number of ['01632 960 001', '01632 960 002', '01632 960 003']) numbers.push((await h.request('POST', `/customers/${c}/numbers`, { number })).body.id)
    const feature = async (n: string, body: Record<string, unknown>) => {
      const r = await h.request('POST', `/numbers/${n}/features`, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceTransactionCode: '4000', ...body })
      assert.is(r.status, 201, JSON.stringify(r.body))
    }
    // The first number's calls under 4200 (the least of 4300 and 4200), the second's under 4000 with the charges, the third's under their type.
    await feature(numbers[0], { serviceCharge: '10.00', callsTransactionCode: '4300' })
    await feature(numbers[0], { serviceCharge: '2.00', callsTransactionCode: '4200' })
    await feature(numbers[1], { serviceCharge: '5.00', callsTransactionCode: '4000' })
    await feature(numbers[2], { serviceCharge: '1.00' })
    // One 30 s national call a number: 0.01 + 0.05 = 0.06.
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...['1', '2', '3'].map((k) => `0163296000${k},01632960999,2026-01-1${k}T10:00:00Z,30,NAT,national,Daisy`)].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    const run = await bill(h, '2026-01-31')
    const [invoice] = (await get(h, `/customers/${c}/invoices`)) as any[]
    assert.is(invoice.netAmount, 18.18)
    const journal = await get(h, `/billingRuns/${run.id}/journal`)
    assert.equal(journal.lines.map((l: any) => [l.accountCode, l.VATRate, l.net]), [['4000', 'Standard 20%', 18.06], ['4200', 'Standard 20%', 0.06], ['Call Charges', 'Standard 20%', 0.06]])
    assert.equal([journal.totals.net, journal.totals.VAT], [invoice.netAmount, invoice.VATAmount])
    const csv = await get(h, `/billingRuns/${run.id}/journal`, true)
    assert.equal(csv.slice(1, 2), [`2026-01-31,invoice,${invoice.invoiceNumber},${c},K-1,4000,Standard 20%,18.06,${journal.lines[0].VAT},GBP`])
  })

  test("a credit note of call charges is posted under the code its invoice line was, after the feature's callsTransactionCode changed; rows from before codes were kept derive it as before", async ({ h }) => {
    const national = (await h.request('POST', '/tariffs', { name: 'UK National', baseRoundSeconds: 60 })).body.id
    await h.request('POST', `/tariffs/${national}/tariffDetails`, { chargeBand: 'NAT', timeBand: 'any', cost: '0.05', costConnection: '0.01' })
    const c = await newCustomer(h, { accountNumber: 'CC-1', defaultNationalTariff: 'UK National' })
    const numbers: string[] = []
    const features: string[] = []
    for (const number of ['01632 960 001', '01632 960 002']) {
      const n = (await h.request('POST', `/customers/${c}/numbers`, { number })).body.id
      numbers.push(n)
      features.push((await h.request('POST', `/numbers/${n}/features`, { featureType: 'Hosted Seat', startDate: '2026-01-01', callsTransactionCode: '5000' })).body.id)
    }
    // One 30 s national call a number: 0.06 each, posted under 5000.
    const file = ['callingNumber,dialledNumber,startTime,durationSeconds,chargeBand,callClass,carrier', ...['1', '2'].map((k) => `0163296000${k},01632960999,2026-01-1${k}T10:00:00Z,30,NAT,national,Daisy`)].join('\n') + '\n'
    assert.is((await h.request('POST', '/usageFiles', undefined, { raw: file, headers: { 'content-type': 'text/csv' } })).status, 201)
    await bill(h, '2026-01-31')
    const calls = ((await get(h, `/customers/${c}/transactions`)) as any[]).filter((t) => t.transactionType === 'Call Charges')
    assert.is(calls.length, 2)
    // The second number's row as a row written before codes were kept: its code is worked out when read.
    const db = h.platform.database.db
    const old = calls.find((t) => t.numberID === numbers[1])
    await sql`update transactions set "accountCode" = null where id = ${Number(old.id)}`.execute(db)
    // The chart of accounts changes after the invoice.
    for (const f of features) assert.is((await h.request('PATCH', `/features/${f}`, { callsTransactionCode: '5100' })).status, 200)
    h.clock.set('2026-02-05T09:00:00Z')
    const [invoice] = (await get(h, `/customers/${c}/invoices`)) as any[]
    const note = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'x', lines: calls.map((t) => ({ transactionID: t.id, amount: '0.06' })) })
    assert.is(note.status, 201, JSON.stringify(note.body))
    const journal = await get(h, '/journal')
    assert.equal(journal.lines.map((l: any) => [l.documentType, l.accountCode, l.net]), [
      ['invoice', '5000', 0.12],
      ['creditNote', '5000', -0.06], // the code its invoice line was posted under: the two offset
      ['creditNote', '5100', -0.06], // no code kept: the number's code now, as before
    ])
  })

  test("a review run's journal: its drafts' lines only once approved, none left by a discarded run (lines written with the invoices, migration 0060)", async ({ h }) => {
    const c = await newCustomer(h, { accountNumber: 'RV-1', VATRate: 'Standard 20%' })
    await newFeature(h, c, { startDate: '2026-01-01', serviceChargeInterval: 'Calendar Monthly', serviceCharge: '40.00', serviceTransactionCode: '4000' })
    const poll = async () => {
      const scheduler = h.platform.createScheduler({ onJobEnd: () => {} })
      await scheduler.runNow('billing-poll')
      await scheduler.stop()
    }
    const review = async () => {
      const r = await h.request('POST', '/billingRuns', { name: 'review', cutoffDate: '2026-03-31', invoiceDate: '2026-03-31', status: 'Requested', review: true })
      assert.is(r.status, 201, JSON.stringify(r.body))
      await poll()
      return String(r.body.id)
    }
    const decide = async (id: string, status: string) => assert.is((await h.request('PATCH', `/billingRuns/${id}`, { status })).status, 200)
    const discarded = await review()
    assert.equal((await get(h, `/billingRuns/${discarded}/journal`)).lines, [], 'a draft is no document yet')
    await decide(discarded, 'Discarded')
    const approved = await review()
    await decide(approved, 'Approved')
    await poll()
    const invoices = ((await get(h, '/invoices?limit=1000')) as any[]).filter((i) => String(i.billingRunID) === approved)
    const invoice = invoices.find((i) => i.customerID === c)
    const journal = await get(h, `/billingRuns/${approved}/journal`)
    const mine = (journal.lines as any[]).filter((l) => l.customerID === c)
    assert.equal(mine.map((l) => [l.document, l.accountCode, l.VATRate, l.net]), [[invoice.invoiceNumber, '4000', 'Standard 20%', invoice.netAmount]])
    assert.equal([journal.totals.net, journal.totals.VAT], [invoices.reduce((s, i) => s + i.netAmount, 0), invoices.reduce((s, i) => s + i.VATAmount, 0)].map((x) => Math.round(x * 10_000) / 10_000))
    // The discarded drafts' lines went with them: every line the table holds is an invoice's that exists.
    const orphans = await sql`select l."invoiceID" from invoice_journal_lines l left join invoices i on i.id = l."invoiceID" where i.id is null`.execute(h.platform.database.db)
    assert.equal(orphans.rows, [])
  })

  test('reports need expert level 3: 403103 below it; bad parameters 400103', async ({ h }) => {
    for (const path of ['/reports/margin', '/journal', '/billingRuns/1/journal']) {
      const r = await h.request('GET', path, undefined, { key: h.keys.low })
      assert.equal([r.status, r.body.error_code], [403, 403103], path)
    }
    for (const path of ['/reports/margin?groupBy=colour', '/reports/margin?from=2026-13-01', '/journal?to=yesterday', '/reports/margin?from=2026-02-01&to=2026-01-01', '/journal?extra=1']) {
      const r = await h.request('GET', path)
      assert.equal([r.status, r.body.error_code], [400, 400103], path)
    }
    const missing = await h.request('GET', '/billingRuns/999999/journal')
    assert.equal([missing.status, missing.body.error_code], [404, 404001])
  })

  test.run()
}
