import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openHarness, type Harness } from '../support/harness.js'
import { activeTargets } from '../support/targets.js'
import { bill as runBilling } from '../support/billing.js'

// Contract 17.4, what an audit found: hostile patterns, credit notes in "what we billed", a bill's
// field counts and periods, spaces on the features' side, and the CSV's counts and totals.
for (const target of activeTargets()) {
  const test = suite<{ h: Harness }>(`carrier bill checks (contract 17.4) [${target}]`)
  test.before(async (ctx) => {
    ctx.h = await openHarness(target)
  })
  test.after(async (ctx) => ctx.h.close())

  const post = (h: Harness, carrier: string, body: string) => h.request('POST', `/carrierBills?carrier=${encodeURIComponent(carrier)}&period=2026-01`, undefined, { raw: body, headers: { 'content-type': 'text/csv' } })
  const reconciliation = async (h: Harness, id: string) => (await h.request('GET', `/carrierBills/${id}/reconciliation`)).body
  const numberOf = async (h: Harness, number: string, fields: Record<string, unknown> = {}) => {
    const c = (await h.request('POST', '/customers', {})).body.id as string
    const n = await h.request('POST', `/customers/${c}/numbers`, { number, ...fields })
    assert.is(n.status, 201, JSON.stringify(n.body))
    return { customerID: c, numberID: n.body.id as string }
  }
  const featureOf = async (h: Harness, numberID: string, fields: Record<string, unknown>) => {
    const r = await h.request('POST', `/numbers/${numberID}/features`, { featureType: 'SIP Channel', startDate: '2025-06-01', serviceChargeCarrier: '1.00', ...fields })
    assert.is(r.status, 201, JSON.stringify(r.body))
    return r.body.id as string
  }

  test('a pattern that makes a regular expression backtrack (*a*a*a*a*a*b) is matched against 500-character references at once', async ({ h }) => {
    const { numberID } = await numberOf(h, '01632 941001')
    const never = await featureOf(h, numberID, { carrier: 'Colt', carrierProduct: 'SIP', carrierReferenceMatches: '*a*a*a*a*a*a*a*a*b' })
    const every = await featureOf(h, numberID, { carrier: 'Colt', carrierProductMatches: '*S*I*P*', carrierReferenceMatches: '*a*a*a*a*a*a' })
    const a500 = 'a'.repeat(500)
    const r = await post(h, 'Colt', `productCode,reference,cost\nSIP,${a500},1.00\nSIPX,${a500},1.00\nSIP,${'a'.repeat(499)}c,1.00\n`)
    assert.is(r.status, 201, JSON.stringify(r.body))
    const rec = await reconciliation(h, r.body.id)
    assert.equal(rec.matched.map((m: any) => [m.line, m.featureID]), [[2, every], [3, every]])
    assert.equal(rec.notBilled.map((m: any) => m.line), [4])
    assert.equal(rec.notOnCarrierBill.map((m: any) => m.featureID), [never])
  })

  test("a credit note takes back from what was billed for the month: the credited row's feature, by the same share of the month", async ({ h }) => {
    const { customerID, numberID } = await numberOf(h, '01632 941002')
    const monthly = await featureOf(h, numberID, { carrier: 'Daisy', carrierProduct: 'SIP', carrierReference: 'D-1', serviceChargeCarrier: '10.00' })
    const yearly = await featureOf(h, numberID, { carrier: 'Daisy', carrierProduct: 'SIP', carrierReference: 'D-2', serviceChargeCarrier: '10.00' })
    const kept = await featureOf(h, numberID, { carrier: 'Daisy', carrierProduct: 'SIP', carrierReference: 'D-3', serviceChargeCarrier: '10.00' })
    const charge = async (featureID: string, amount: number, dateFrom: string, dateTo: string) => {
      const t = await h.request('POST', `/customers/${customerID}/transactions`, { transactionType: 'Recurring Charge', amount, featureID, transactionDate: dateFrom, dateFrom, dateTo })
      assert.is(t.status, 201, JSON.stringify(t.body))
      return t.body.id as string
    }
    const january = await charge(monthly, 31, '2026-01-01', '2026-01-31')
    const december = await charge(monthly, 20, '2025-12-01', '2025-12-31')
    const year = await charge(yearly, 365, '2026-01-01', '2026-12-31')
    await charge(kept, 31, '2026-01-01', '2026-01-31')
    await runBilling(h, '2026-02-28')
    const invoice = (await h.request('GET', `/customers/${customerID}/invoices`)).body.at(-1)
    // January's 31.00 credited whole; December's (outside the month) too; 100.00 of the year's 365.00.
    const cn = await h.request('POST', `/invoices/${invoice.id}/creditNotes`, { reason: 'goodwill', lines: [{ transactionID: january }, { transactionID: december }, { transactionID: year, amount: '100.00' }] })
    assert.equal([cn.status, cn.body.netAmount], [201, -151], JSON.stringify(cn.body))
    const r = await post(h, 'Daisy', 'productCode,reference,cost\nSIP,D-1,10.00\nSIP,D-2,10.00\nSIP,D-3,10.00\n')
    assert.is(r.status, 201, JSON.stringify(r.body))
    // 0 + (31.00 − 100.00 × 31 ÷ 365 = 8.49) + 31.00
    assert.is(r.body.matchedBilled, 53.51)
    const rec = await reconciliation(h, r.body.id)
    assert.equal(rec.matched.map((m: any) => [m.featureID, m.billedAmount]), [[monthly, 0], [yearly, 22.51], [kept, 31]])
    assert.is(rec.summary.matched.billed, 53.51)
  })

  test("a line with more fields than the header is 400101 naming it (an unquoted 1,234.56 is not a cost of 1); fewer only when optional columns at the end are left out; nothing stored", async ({ h }) => {
    const { numberID } = await numberOf(h, '01632 941003')
    await featureOf(h, numberID, { carrier: 'Gamma', carrierProduct: 'LL', carrierReference: 'CIRC-9', serviceChargeCarrier: '1234.56' })
    const before = (await h.request('GET', '/carrierBills?limit=1000')).body.length
    const refused = async (body: string, error: string) => {
      const r = await post(h, 'Gamma', body)
      assert.equal([r.status, r.body.error_code, r.body.error], [400, 400101, error], JSON.stringify(r.body))
      assert.match(r.body.hint, /nothing of it was kept/)
    }
    await refused('productCode,reference,description,quantity,cost\nLL,CIRC-9,Leased line,1,1,234.56\n', 'line 2: expected 5 fields, found 6')
    await refused('productCode,reference,description,quantity,cost\nLL,CIRC-9,Leased line,1,1234.56\nLL,CIRC-9,Leased line,1\n', 'line 3: expected 5 fields, found 4')
    await refused('productCode,reference,cost,description\nLL,CIRC-9\n', 'line 2: expected 4 fields, found 2')
    assert.is((await h.request('GET', '/carrierBills?limit=1000')).body.length, before, 'no refused bill is kept')
    // Optional columns at the end may be left out of a line.
    const r = await post(h, 'Gamma', 'productCode,reference,cost,description,periodFrom,periodTo\nLL,CIRC-9,1234.56\nLL,CIRC-9,1234.56,Leased line\n')
    assert.is(r.status, 201, JSON.stringify(r.body))
    assert.equal([r.body.lines, r.body.totalCost, r.body.matchedCount, r.body.costDiffersCount], [2, 2469.12, 2, 0])
  })

  // Audit: a NUL answered 500 on Postgres (its text columns cannot hold one) and was stored by
  // SQLite, where a usage file refuses it naming its line; and the 415 hint spoke of a usage file.
  test("a NUL in a bill's productCode, reference or description is 400101 naming its line and field; nothing stored; a body not CSV is 415 naming the carrier's bill", async ({ h }) => {
    const before = (await h.request('GET', '/carrierBills?limit=1000')).body.length
    for (const [line, error] of [
      ['SIP\u0000,R1,Channels,1,1.00', 'line 3: productCode holds a NUL character'],
      ['SIP,R\u00001,Channels,1,1.00', 'line 3: reference holds a NUL character'],
      ['SIP,R1,Chan\u0000nels,1,1.00', 'line 3: description holds a NUL character'],
    ]) {
      const r = await post(h, 'Gamma', `productCode,reference,description,quantity,cost\nSIP,R0,Channels,1,1.00\n${line}\n`)
      assert.equal([r.status, r.body.error_code, r.body.error], [400, 400101, error], JSON.stringify(r.body))
      assert.match(r.body.hint, /nothing of it was kept/)
    }
    assert.is((await h.request('GET', '/carrierBills?limit=1000')).body.length, before, 'no refused bill is kept')
    const json = await h.request('POST', '/carrierBills?carrier=Gamma&period=2026-01', undefined, { raw: '{}', headers: { 'content-type': 'application/json' } })
    assert.equal([json.status, json.body.hint], [415, "Send the carrier's bill as Content-Type: text/csv."], JSON.stringify(json.body))
  })

  test('a line whose periodFrom is after its periodTo is 400101 naming it; one day (from = to) is a period', async ({ h }) => {
    const r = await post(h, 'Gamma', 'productCode,reference,cost,periodFrom,periodTo\nX,Y,1.00,2026-01-01,2026-01-01\nX,Y,1.00,2026-01-31,2026-01-01\n')
    assert.equal([r.status, r.body.error_code, r.body.error], [400, 400101, 'line 3: periodFrom 2026-01-31 is after periodTo 2026-01-01'], JSON.stringify(r.body))
    const ok = await post(h, 'Gamma', 'productCode,reference,cost,periodFrom,periodTo\nX,Y,1.00,2026-01-01,2026-01-01\nX,Y,1.00,2026-01-01,\n')
    assert.is(ok.status, 201, JSON.stringify(ok.body))
  })

  test("spaces around a feature's product, reference, number's reference or patterns are ignored, as a line's are", async ({ h }) => {
    const { numberID } = await numberOf(h, '01632 941004', { carrierReference: 'NUM-1 ' })
    const product = await featureOf(h, numberID, { carrier: 'Vodafone', carrierProduct: 'SIP ', carrierReference: 'REF-1' })
    const byNumber = await featureOf(h, numberID, { carrier: 'Vodafone', carrierProduct: 'BB' })
    const patterns = await featureOf(h, numberID, { carrier: 'Vodafone', carrierProductMatches: ' HS* ', carrierReferenceMatches: ' H-? ' })
    const r = await post(h, 'Vodafone', 'productCode,reference,cost\n"SIP ",REF-1,1.00\nBB,"NUM-1 ",1.00\nHS9, H-1 ,1.00\n')
    assert.is(r.status, 201, JSON.stringify(r.body))
    const rec = await reconciliation(h, r.body.id)
    assert.equal(rec.matched.map((m: any) => [m.line, m.featureID]), [[2, product], [3, byNumber], [4, patterns]])
    assert.equal([rec.notBilled, rec.notOnCarrierBill], [[], []])
  })

  test("the CSV ends with a total line per section, its count and totals the JSON summary's (a costDiffers line counted in matched's)", async ({ h }) => {
    const { numberID } = await numberOf(h, '01632 941005')
    await featureOf(h, numberID, { carrier: 'TalkTalk Business', carrierProduct: 'A', carrierReference: 'R1', serviceChargeCarrier: '10.00', featureCount: 3 })
    await featureOf(h, numberID, { carrier: 'TalkTalk Business', carrierProduct: 'B', carrierReference: 'R2', serviceChargeCarrier: '3.3333' })
    await featureOf(h, numberID, { carrier: 'TalkTalk Business', carrierProduct: 'M', carrierReference: 'R3', serviceChargeCarrier: '0.0001' })
    const body = 'productCode,reference,description,quantity,cost\nA,R1,x,2.5,25.0100\nA,R1,again,1,25.0101\nB,R2,x,1,3.3233\nZ,R9,"=total",1,-0.0001\n'
    const r = await post(h, 'TalkTalk Business', body)
    assert.is(r.status, 201, JSON.stringify(r.body))
    const { summary } = await reconciliation(h, r.body.id)
    const csv = await h.request('GET', `/carrierBills/${r.body.id}/reconciliation`, undefined, { headers: { accept: 'text/csv' } })
    const rows = csv.text.trim().split('\r\n')
    assert.is(rows[0], 'outcome,line,productCode,reference,description,quantity,cost,periodFrom,periodTo,featureID,expectedCost,billedAmount')
    assert.equal(rows.slice(1, 6).map((l) => l.split(',')[0]), ['costDiffers', 'costDiffers', 'matched', 'notBilled', 'notOnCarrierBill'], 'the rows as before')
    assert.equal(rows.slice(6), [
      'total matched,3,,,,,53.3434,,,,63.3333,0',
      'total costDiffers,2,,,,,50.0201,,,,60,',
      'total notBilled,1,,,,,-0.0001,,,,,',
      'total notOnCarrierBill,1,,,,,,,,,0.0001,',
    ])
    // Every figure of the JSON summary, and only those, in the CSV's total lines.
    const fromCsv = Object.fromEntries(
      rows.slice(6).map((l) => {
        const cells = l.split(',')
        const figures = { count: cells[1], carrierCost: cells[6], expectedCost: cells[10], billed: cells[11] }
        return [cells[0].slice('total '.length), Object.fromEntries(Object.entries(figures).filter(([, v]) => v !== '').map(([k, v]) => [k, Number(v)]))]
      }),
    )
    assert.equal(fromCsv, summary)
  })

  test.run()
}
